/** Vite's `?url` imports: the URL of the emitted asset. */
declare module '*?url' {
  const url: string;
  export default url;
}
