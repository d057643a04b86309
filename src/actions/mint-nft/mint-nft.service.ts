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
 * Stores the image and the token's metadata JSON content-addressed (pending until the mint is
 * confirmed), then answers a call of the chain's collection `safeMint(recipient, <metadata URI>)`
 * for the user to sign.
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
    const imageUri = this.store.uri(
      await this.store.put(await image.read(), image.mimeType),
      baseUrl,
    );
    const metadata: NftMetadata = { name, description, image: imageUri };
    const metadataId = await this.store.put(
      Buffer.from(JSON.stringify(metadata)),
      'application/json',
    );
    const tokenUri = this.store.uri(metadataId, baseUrl);
    return this.builder.build(
      {
        chainId: chain.chainId,
        to: collection,
        call: { abi: ERC721_SAFE_MINT, args: [to, tokenUri] },
        display: { args: { name, image: imageUri } },
      },
      context,
    );
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
