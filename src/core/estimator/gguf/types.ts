/**
 * A GGUF file's header as hubwatch stores it (artifact kind weights_header): the metadata with long
 * arrays (vocabulary, scores, merges) reduced to their length and hash, every tensor's name, shape (ggml
 * order: shape[0] is the row length) and type name, and the special tokens' text. Plain JSON: no bigint.
 */
export type GgufArraySummary = { array_length: number; sha256: string | null };
export type GgufMetaValue = string | number | boolean | (string | number | boolean)[] | GgufArraySummary;

export type GgufTensor = { name: string; shape: number[]; type: string };

export type GgufHeader = {
  format: "gguf";
  version: number;
  metadata: Record<string, GgufMetaValue>;
  tensors: GgufTensor[];
  /** Text of the special tokens the ids in tokenizer.ggml.*_token_id point at. */
  tokens: { bos?: string; eos?: string };
  /** Bytes before the tensor data (the only bytes a reader needs). */
  header_bytes: number;
  file_size: number | null;
};

/** Arrays up to this length are kept whole in the stored metadata; longer ones are summarised. */
export const GGUF_ARRAY_KEEP = 64;

/** The type name stored for a tensor type id ggml does not define. */
export function unknownTypeName(id: number): string {
  return `type_${id}`;
}

export function isGgufHeader(v: unknown): v is GgufHeader {
  const h = v as Partial<GgufHeader> | null;
  return !!h && typeof h === "object" && h.format === "gguf" && Array.isArray(h.tensors);
}
