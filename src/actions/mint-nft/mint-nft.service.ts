import { HttpStatus, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import type { Address } from 'viem';
import {
  ChainRegistry,
  ActionException,
  type ExecutionResponse,
  type ContextOf,
  TransactionBuilder,
} from '../../kit';
import type { ChainInfo } from '../../evm';
import { ERC721_SAFE_MINT } from './erc721-mint.abi';
import { mintNftAction, type MintNftParams } from './mint-nft.action';
import { NftStorage } from './storage/nft-storage.service';

/** The token's metadata, as ERC-721's metadata JSON schema names its fields. */
export interface NftMetadata {
  name: string;
  description: string;
  image: string;
}

/**
 * Names the image and the token's metadata JSON by their bytes (content-addressed), builds the
 * chain's collection `safeMint(recipient, <metadata URI>)` for the user to sign, and only once
 * its simulation passed stores both files, pending until the mint is confirmed: a refused mint
 * stores nothing, and an answer never names a file that is not stored.
 */
@Injectable()
export class MintNftService implements OnModuleInit {
  private readonly logger = new Logger('MintNft');

  constructor(
    private readonly builder: TransactionBuilder,
    private readonly store: NftStorage,
    private readonly chains: ChainRegistry,
  ) {}

  /** A missing collection is the operator's to fix, not a reason to keep every other action down. */
  onModuleInit(): void {
    const chain = this.chains.get(mintNftAction.chains.source);
    if (chain && !chain.nftCollection)
      this.logger.warn(`No nftCollection for chain ${chain.chainId}: /api/mint-nft answers 503`);
  }

  async build(
    { image, name, description = '', recipient }: MintNftParams,
    context: ContextOf<typeof mintNftAction>,
    baseUrl: string,
  ): Promise<ExecutionResponse> {
    const chain = this.chains.forRequest(mintNftAction, context);
    const collection = collectionOf(chain);
    const to = recipient ?? context.userAddress;
    // read(), not bytes: an upload past 64 KiB waits on disk, read without blocking the loop.
    const imageFile = this.store.file(await image.read(), image.mimeType);
    const imageUri = this.store.uri(imageFile.id, baseUrl);
    const metadata: NftMetadata = { name, description, image: imageUri };
    const metadataFile = this.store.file(Buffer.from(JSON.stringify(metadata)), 'application/json');
    const tokenUri = this.store.uri(metadataFile.id, baseUrl);
    const upload = { owner: context.userAddress, image: imageFile, metadata: metadataFile };
    // The caps first: a user over them, or a full store, costs no simulation.
    await this.store.admit(upload);
    const answer = await this.builder.build(
      {
        chainId: chain.chainId,
        to: collection,
        call: { abi: ERC721_SAFE_MINT, args: [to, tokenUri] },
        display: { args: { name, image: imageUri } },
      },
      context,
    );
    await this.store.save(upload);
    return answer;
  }
}

function collectionOf(chain: ChainInfo): Address {
  if (chain.nftCollection) return chain.nftCollection;
  throw new ActionException(
    HttpStatus.SERVICE_UNAVAILABLE,
    `NFT minting is not configured on ${chain.name} (chain ${chain.chainId})`,
    { code: 'NOT_CONFIGURED' },
  );
}
