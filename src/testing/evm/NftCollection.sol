// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {ERC721URIStorage} from "@openzeppelin/contracts/token/ERC721/extensions/ERC721URIStorage.sol";

/// An open ERC-721 collection: anyone mints a token to any address with its metadata URI,
/// the shape the mint-nft action calls (`safeMint(to, uri)`).
contract NftCollection is ERC721URIStorage {
    uint256 private _nextTokenId;

    constructor() ERC721("Mini-app NFTs", "MINI") {}

    function safeMint(address to, string calldata uri) external returns (uint256 tokenId) {
        tokenId = _nextTokenId++;
        _safeMint(to, tokenId);
        _setTokenURI(tokenId, uri);
    }
}
