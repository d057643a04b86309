// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// A plain OpenZeppelin 5 ERC-20 with any number of decimals, its whole supply minted to the
/// deployer. Its failures are OZ's custom errors (ERC20InsufficientBalance,
/// ERC20InsufficientAllowance, ...), the revert shape most modern tokens have.
contract OzToken is ERC20 {
    uint8 private immutable _decimals;

    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply)
        ERC20(name_, symbol_)
    {
        _decimals = decimals_;
        _mint(msg.sender, supply);
    }

    function decimals() public view virtual override returns (uint8) {
        return _decimals;
    }
}

/// Approves like mainnet USDT: changing a non-zero allowance to another non-zero value reverts,
/// and (as USDT does) with a bare `require`, so the revert carries no data at all. Callers must
/// reset the allowance to 0 first.
contract ZeroFirstToken is OzToken {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply)
        OzToken(name_, symbol_, decimals_, supply)
    {}

    function approve(address spender, uint256 value) public virtual override returns (bool) {
        // No message on purpose: USDT's `require(!((_value != 0) && (allowed[...] != 0)))`.
        require(value == 0 || allowance(msg.sender, spender) == 0);
        return super.approve(spender, value);
    }
}

/// Every transfer and transferFrom reverts with a plain `Error(string)` reason, the revert shape
/// of older tokens; only the constructor's mint (from the zero address) goes through.
contract FrozenToken is OzToken {
    constructor(string memory name_, string memory symbol_, uint8 decimals_, uint256 supply)
        OzToken(name_, symbol_, decimals_, supply)
    {}

    function _update(address from, address to, uint256 value) internal virtual override {
        require(from == address(0), "FrozenToken: transfers are frozen");
        super._update(from, to, value);
    }
}
