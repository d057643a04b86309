import type { Address } from 'viem';
import { ActionParam, defineAction, type UploadedImage } from '../../kit';
import { COLLECTIBLES_MINI_APP } from '../mini-apps';

export const MINT_IMAGE_TYPES = 'image/png,image/jpeg,image/webp,image/gif';
export const MINT_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export class MintNftParams {
  @ActionParam({
    type: 'image',
    label: 'Image',
    required: true,
    accept: MINT_IMAGE_TYPES,
    maxSize: MINT_IMAGE_MAX_BYTES,
    maxWidth: 4096,
    maxHeight: 4096,
    description: 'PNG, JPEG, WebP or GIF, at most 5 MB and 4096×4096 pixels',
  })
  image!: UploadedImage;

  @ActionParam({ type: 'text', label: 'Name', required: true, maxLength: 100 })
  name!: string;

  @ActionParam({ type: 'textarea', label: 'Description', maxLength: 1000 })
  description?: string;

  @ActionParam({
    type: 'address',
    label: 'Recipient',
    description: 'Who receives the NFT; empty: you',
  })
  recipient?: Address;
}

export const mintNftAction = defineAction({
  miniApp: COLLECTIBLES_MINI_APP,
  label: 'Mint an NFT',
  description: 'Mint an NFT of an uploaded image on the configured collection',
  chains: { source: 43113 },
  path: '/api/mint-nft',
  callsOutside: true,
  params: MintNftParams,
  requiresUser: true,
  // The image is a file: the conformance kit and the debugger page attach one of their own.
  samples: [
    {
      params: { name: 'Sunset', description: 'A picture of the evening sky' },
      userAddress: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    },
  ],
});
