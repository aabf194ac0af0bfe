export type ImageFormat = 'png' | 'jpeg' | 'tiff';

/** A frame's size in pixels, as its header declares it. */
export interface FrameSize {
  width: number;
  height: number;
}

/** What an image file declares before any pixel is decoded: its format and the size of each frame (a TIFF's pages). */
export interface ImageHeader {
  format: ImageFormat;
  frames: FrameSize[];
}

/** Why a file's header could not be read: it is not one of the formats, or it is cut or broken before its size. */
export interface UnreadableImage {
  unreadable: string;
}
