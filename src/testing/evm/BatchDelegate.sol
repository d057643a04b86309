// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC7821} from "@openzeppelin/contracts/account/extensions/draft-ERC7821.sol";
import {ERC721Holder} from "@openzeppelin/contracts/token/ERC721/utils/ERC721Holder.sol";
import {ERC1155Holder} from "@openzeppelin/contracts/token/ERC1155/utils/ERC1155Holder.sol";

/// What an EOA delegates to with EIP-7702 to batch its calls: OpenZeppelin's ERC-7821 executor,
/// whose default rule lets only the account itself (the EOA sending to its own address) execute.
/// The holders and receive() keep the delegated EOA able to take what a plain EOA takes: the
/// coin, and ERC-721/1155 safe transfers, which call back any address that has code.
contract BatchDelegate is ERC7821, ERC721Holder, ERC1155Holder {
    receive() external payable {}
}
