// html-encoding-sniffer 7 ships no types; @types/html-encoding-sniffer describes version 3.
declare module 'html-encoding-sniffer' {
  /** The canonical name of the encoding a browser would read these bytes in. */
  export default function htmlEncodingSniffer(
    bytes: Uint8Array,
    options?: { xml?: boolean; transportLayerEncodingLabel?: string; defaultEncoding?: string; maxPrescanBytes?: number },
  ): string;
}
