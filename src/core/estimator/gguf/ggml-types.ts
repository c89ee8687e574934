/**
 * ggml's tensor types by id, with (block size, bytes per block): a row of n elements of a type takes
 * n / blockSize * typeSize bytes (ggml_row_size; n must be a whole number of blocks). Source:
 * llama.cpp gguf-py/gguf/constants.py (GGMLQuantizationType, GGML_QUANT_SIZES), QK_K = 256.
 */
type GgmlType = { name: string; blockSize: number; typeSize: number };

const QK_K = 256;

const TYPES: Record<number, GgmlType> = {
  0: { name: "F32", blockSize: 1, typeSize: 4 },
  1: { name: "F16", blockSize: 1, typeSize: 2 },
  2: { name: "Q4_0", blockSize: 32, typeSize: 2 + 16 },
  3: { name: "Q4_1", blockSize: 32, typeSize: 2 + 2 + 16 },
  6: { name: "Q5_0", blockSize: 32, typeSize: 2 + 4 + 16 },
  7: { name: "Q5_1", blockSize: 32, typeSize: 2 + 2 + 4 + 16 },
  8: { name: "Q8_0", blockSize: 32, typeSize: 2 + 32 },
  9: { name: "Q8_1", blockSize: 32, typeSize: 4 + 4 + 32 },
  10: { name: "Q2_K", blockSize: QK_K, typeSize: 2 + 2 + QK_K / 16 + QK_K / 4 },
  11: { name: "Q3_K", blockSize: QK_K, typeSize: 2 + QK_K / 4 + QK_K / 8 + 12 },
  12: { name: "Q4_K", blockSize: QK_K, typeSize: 2 + 2 + QK_K / 2 + 12 },
  13: { name: "Q5_K", blockSize: QK_K, typeSize: 2 + 2 + QK_K / 2 + QK_K / 8 + 12 },
  14: { name: "Q6_K", blockSize: QK_K, typeSize: 2 + QK_K / 2 + QK_K / 4 + QK_K / 16 },
  15: { name: "Q8_K", blockSize: QK_K, typeSize: 4 + QK_K + QK_K / 8 },
  16: { name: "IQ2_XXS", blockSize: QK_K, typeSize: 2 + QK_K / 4 },
  17: { name: "IQ2_XS", blockSize: QK_K, typeSize: 2 + QK_K / 4 + QK_K / 32 },
  18: { name: "IQ3_XXS", blockSize: QK_K, typeSize: 2 + QK_K / 4 + QK_K / 8 },
  19: { name: "IQ1_S", blockSize: QK_K, typeSize: 2 + QK_K / 8 + QK_K / 16 },
  20: { name: "IQ4_NL", blockSize: 32, typeSize: 2 + 16 },
  21: { name: "IQ3_S", blockSize: QK_K, typeSize: 2 + QK_K / 4 + QK_K / 8 + QK_K / 32 + 4 },
  22: { name: "IQ2_S", blockSize: QK_K, typeSize: 2 + QK_K / 4 + QK_K / 16 },
  23: { name: "IQ4_XS", blockSize: QK_K, typeSize: 2 + 2 + QK_K / 2 + QK_K / 64 },
  24: { name: "I8", blockSize: 1, typeSize: 1 },
  25: { name: "I16", blockSize: 1, typeSize: 2 },
  26: { name: "I32", blockSize: 1, typeSize: 4 },
  27: { name: "I64", blockSize: 1, typeSize: 8 },
  28: { name: "F64", blockSize: 1, typeSize: 8 },
  29: { name: "IQ1_M", blockSize: QK_K, typeSize: QK_K / 8 + QK_K / 16 + QK_K / 32 },
  30: { name: "BF16", blockSize: 1, typeSize: 2 },
  34: { name: "TQ1_0", blockSize: QK_K, typeSize: 2 + 4 * 13 },
  35: { name: "TQ2_0", blockSize: QK_K, typeSize: 2 + 64 },
  39: { name: "MXFP4", blockSize: 32, typeSize: 1 + 16 },
};

const BY_NAME = new Map(Object.entries(TYPES).map(([id, t]) => [t.name, { id: Number(id), ...t }]));

/** The type with this id, or null for one ggml does not (or no longer) define. */
export function ggmlType(id: number): GgmlType | null {
  return TYPES[id] ?? null;
}

/** The id of a type by name ("Q4_K" -> 12), or null. */
export function ggmlTypeId(name: string): number | null {
  return BY_NAME.get(name)?.id ?? null;
}

/** The type of a name, or null. */
export function ggmlTypeByName(name: string): GgmlType | null {
  return BY_NAME.get(name) ?? null;
}

/**
 * Bytes of a tensor of `shape` (ggml order: shape[0] is the row length) stored as `type`; null when the row
 * is not a whole number of blocks (ggml refuses such a tensor).
 */
export function tensorBytes(type: GgmlType, shape: number[]): number | null {
  const row = shape[0] ?? 1;
  if (row % type.blockSize !== 0) return null;
  let rows = 1;
  for (let i = 1; i < shape.length; i++) rows *= shape[i]!;
  return (row / type.blockSize) * type.typeSize * rows;
}
