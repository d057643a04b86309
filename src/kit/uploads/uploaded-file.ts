/** An uploaded file as the service receives it: its type is read from the bytes, not the name. */
export interface UploadedFile {
  /** The name the client gave; never trusted for the type. */
  filename: string;
  /** The real type, from the bytes' magic number: `text/plain` for text, `application/octet-stream` when unknown. */
  mimeType: string;
  /** The real type's usual extension, without the dot (`png`, `pdf`); empty when unknown. */
  extension: string;
  size: number;
  bytes: Buffer;
}

/** An uploaded image, with the dimensions read from its header. */
export interface UploadedImage extends UploadedFile {
  width: number;
  height: number;
}

/** Whether a declared parameter type is read from a multipart body: `file` and `image`. */
export const isUploadType = (type: string): boolean => type === 'file' || type === 'image';
