/**
 * gemma4's audio tower (modeling_gemma4.py Gemma4AudioModel, a USM-style conformer) and its
 * embed_audio projector. Subsampling: two Conv2d(3x3, stride 2, no bias) each with a LayerNorm
 * (no bias), then input_proj_linear ((c0 // 4) x c1 -> h, no bias). Per layer (macaron conformer):
 * feed_forward1 and feed_forward2 (h -> 4h -> h, pre/post RMSNorm), chunked self-attention (q, k, v,
 * post h x h, relative_k_proj h x h, per_dim_scale head_dim), a light conv (linear_start h -> 2h,
 * GLU, depthwise conv1d of conv_kernel_size, conv_norm, linear_end h -> h, pre-norm) and three
 * RMSNorms. output_proj (h -> output_proj_dims, bias), then embed_audio (-> text hidden, no bias).
 * Sized at 30 s of audio: 3000 mel frames, subsampled x4 -> 750 positions. Clipping bounds of the
 * clippable linears are buffers, not counted.
 */
import type { ConfigView } from "../config-view.ts";
import type { StructureNode, TowerReading } from "../types.ts";
import { append } from "./blocks.ts";
import { node } from "./moe-parts.ts";

const MEL_FRAMES = 3000;

function linears(list: [number, number][]): { in: number; out: number; count: number }[] {
  return list.map(([i, o]) => ({ in: i, out: o, count: 1 }));
}

function conformerLayer(l: number, seq: number, h: number, headDim: number, kernel: number): StructureNode[] {
  const shape = [seq, h];
  const ffn = (name: string) => {
    const n = node(name, "Conformer FFN", shape, 8 * h * h + 2 * h, 11 * h, l);
    n.linears = linears([
      [h, 4 * h],
      [4 * h, h],
    ]);
    return n;
  };
  const attn = node(
    `audio.Attention_${l}`,
    "Chunked Rel-Pos Attn",
    shape,
    5 * h * h + headDim + 2 * h,
    8 * h,
    l,
  );
  attn.linears = linears([
    [h, h],
    [h, h],
    [h, h],
    [h, h],
  ]);
  const conv = node(`audio.LightConv_${l}`, "Light Conv1d", shape, 3 * h * h + h * kernel + 2 * h, 8 * h, l);
  conv.linears = linears([
    [h, 2 * h],
    [h, h],
  ]);
  const ffn1 = ffn(`audio.FFN_${l}_1`);
  const ffn2 = ffn(`audio.FFN_${l}_2`);
  ffn2.params = 8 * h * h + 2 * h + h;
  // the layer's norm_out (h) rides on the second feed-forward node
  return [ffn1, attn, conv, ffn2];
}

/** The audio tower with its projector into the text hidden size. */
export function gemma4AudioTower(a: ConfigView, textHidden: number): TowerReading {
  const h = a.int("hidden_size");
  const heads = a.int("num_attention_heads");
  const channels = a.optArray("subsampling_conv_channels") ?? [128, 32];
  const [c0, c1] = [Number(channels[0]), Number(channels[1])];
  if (!Number.isInteger(c0) || !Number.isInteger(c1) || c0 < 4 || c1 < 1) {
    a.fail("subsampling_conv_channels", "expected two positive integers");
  }
  const seq = Math.ceil(Math.ceil(MEL_FRAMES / 2) / 2);
  const projIn = Math.floor(c0 / 4) * c1;
  const subParams = c0 * 9 + c0 + c0 * c1 * 9 + c1 + projIn * h;
  const sub = node("audio.Subsample", "Conv2d x2 + Linear", [seq, h], subParams, 2 * h);
  sub.linears = linears([[projIn, h]]);
  const nodes: StructureNode[] = [node("audio.Input", "Input", [MEL_FRAMES, 128], 0, 0), sub];
  const kernel = a.optInt("conv_kernel_size", 5);
  for (let l = 1; l <= a.int("num_hidden_layers"); l++)
    append(nodes, conformerLayer(l, seq, h, h / heads, kernel));
  const out = a.optInt("output_proj_dims", h);
  const proj = node(
    "audio.Projector",
    "Linear + Linear",
    [seq, textHidden],
    h * out + out + out * textHidden,
    out + textHidden,
  );
  proj.linears = linears([
    [h, out],
    [out, textHidden],
  ]);
  nodes.push(proj);
  return { name: "audio", role: "audio", seqLen: seq, nodes };
}
