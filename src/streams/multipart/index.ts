export { MultipartFormatError } from './errors';
export { mediaTypeEssence, multipartBoundary } from './content-type';
export {
  type BufferedMultipartPart,
  type MultipartParseOptions,
  type MultipartPart,
  type MultipartReadOptions,
  parseMultipart,
  readMultipart,
} from './parser';
export { type MultipartWriterPart, makeMultipartBoundary, writeMultipart } from './writer';
