// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {Create2} from "@openzeppelin/contracts/utils/Create2.sol";

/// A smart-contract wallet as sign-in sees one (ERC-1271): a signature is valid when its owner's
/// key signed the hash. Coinbase Smart Wallet and Safe answer the same call with more behind it.
contract OwnedWallet {
    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError error, ) = ECDSA.tryRecover(hash, signature);
        return error == ECDSA.RecoverError.NoError && signer == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }
}

/// Deploys OwnedWallets at CREATE2 addresses known before deployment: what an ERC-6492
/// signature of a wallet not deployed yet names (the factory and the call that deploys it).
contract WalletFactory {
    function deploy(address owner, bytes32 salt) external returns (address) {
        return address(new OwnedWallet{salt: salt}(owner));
    }

    function addressOf(address owner, bytes32 salt) external view returns (address) {
        bytes32 code = keccak256(abi.encodePacked(type(OwnedWallet).creationCode, abi.encode(owner)));
        return Create2.computeAddress(salt, code);
    }
}

/// What an attacker's ERC-6492 signature may name as its factory: a call that never ends, burning
/// every unit of gas it is given. A check run with the node's default gas holds the node that long.
contract GasBurner {
    uint256 public burnt;

    function deploy() external {
        while (true) {
            burnt += 1;
        }
    }
}
