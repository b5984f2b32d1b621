// multer ships without types and @types/multer is not installed: the little of it the catalog upload uses.
declare module 'multer' {
  import type { RequestHandler } from 'express';

  interface Options {
    storage?: unknown;
    limits?: { fileSize?: number; files?: number; fields?: number; fieldSize?: number };
  }

  interface Multer {
    single(field: string): RequestHandler;
  }

  function multer(options?: Options): Multer;
  namespace multer {
    function memoryStorage(): unknown;
  }
  export default multer;
}
