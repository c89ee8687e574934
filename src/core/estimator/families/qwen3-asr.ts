/**
 * qwen3_asr: thinker_config = a Whisper-like audio encoder (audio_config) + a Qwen3 text decoder
 * (text_config). The audio encoder (Qwen3ASRAudioEncoder) is: three stride-2 Conv2d(3x3) with
 * downsample_hidden_size channels over the mel spectrogram, conv_out (channels x mel/8 -> d_model,
 * no bias), sinusoidal positions (a buffer, not stored), encoder_layers LayerNorm blocks with biased
 * q/k/v/o and fc1/fc2, ln_post, then proj1 (d -> d) and proj2 (d -> output_dim).
 */
import type { ConfigView } from "../config-view.ts";
import type { ModelReading } from "../types.ts";
import { fullKv, textReading, textTower } from "./moe-frame.ts";
import { node } from "./moe-parts.ts";
import { textDims } from "./qwen3-moe.ts";
import { qwen3DenseLayers } from "./qwen3-vl.ts";
import { encoderTower } from "./vision-parts.ts";

/** 30 s of audio at 100 mel frames per second. */
const MEL_FRAMES = 3000;

/** Output length of a stride-2, padding-1, kernel-3 convolution. */
function half(n: number): number {
  return Math.floor((n + 1) / 2);
}

/**
 * The audio tower at 30 s of audio. The encoder convolves chunks of 2 x n_window mel frames
 * (100 = 1 s by default) separately, each shrinking x8 in time (100 -> 50 -> 25 -> 13), so 30 s
 * give 30 x 13 = 390 positions (not Whisper's 1500: this stem downsamples 4x more).
 */
function audioFront(a: ConfigView, d: number) {
  const mel = a.optInt("num_mel_bins", 128);
  const ch = a.int("downsample_hidden_size");
  const chunk = 2 * a.optInt("n_window", 50);
  const chunks = Math.ceil(MEL_FRAMES / chunk);
  const [c1, c2, c3] = [half(chunk), half(half(chunk)), half(half(half(chunk)))];
  const seq = chunks * c3;
  const [f1, f2, f3] = [half(mel), half(half(mel)), half(half(half(mel)))];
  const convParams = ch * 9 + ch + 2 * (ch * ch * 9 + ch) + ch * f3 * d;
  // Conv outputs and their GELU outputs per encoder position, plus conv_out's output.
  const convAct = (2 * ch * (f1 * c1 + f2 * c2 + f3 * c3)) / c3 + d;
  const stem = node("audio.ConvStem", "Conv2d x3 + Linear", [seq, d], convParams, convAct);
  stem.linears = [{ in: ch * f3, out: d, count: 1 }];
  return { seq, nodes: [node("audio.Input", "Input", [mel, MEL_FRAMES], 0, 0), stem] };
}

/** The Qwen3-ASR / Qwen3-Omni audio encoder tower at 30 s of audio. */
function qwenAudioTower(a: ConfigView) {
  const d = a.int("d_model");
  const out = a.int("output_dim");
  const { seq, nodes: front } = audioFront(a, d);
  const proj = node(
    "audio.Projector",
    "Linear-GELU-Linear",
    [seq, out],
    d * d + d + d * out + out,
    2 * d + out,
  );
  proj.linears = [
    { in: d, out: d, count: 1 },
    { in: d, out, count: 1 },
  ];
  return encoderTower({
    name: "audio",
    role: "audio",
    seq,
    hidden: d,
    inter: a.int("encoder_ffn_dim"),
    heads: a.int("encoder_attention_heads"),
    layers: a.int("encoder_layers"),
    bias: true,
    mlpBias: true,
    norm: "LayerNorm",
    front,
    finalNorm: true,
    back: [proj],
  });
}

/** qwen3_asr: the thinker's audio encoder and Qwen3 text decoder (tied embedding). */
export function readQwen3Asr(cfg: ConfigView): ModelReading {
  const th = cfg.sub("thinker_config");
  const t = th.sub("text_config");
  const d = textDims(t);
  const warnings = [
    "qwen3_asr: audio encoder sized at 30 s (30 chunks of 100 mel frames -> 390 positions after the x8 conv stem)",
  ];
  const declared = [t, th, cfg].find((c) => c.has("tie_word_embeddings"));
  // Qwen3-ASR ties the LM head to the embedding (seed 000: the checkpoint stores both copies).
  const tied = declared ? declared.bool("tie_word_embeddings", true) : true;
  if (!declared) warnings.push("qwen3_asr: tie_word_embeddings not in config; the Qwen3-ASR head is tied");
  const layers = qwen3DenseLayers(t, d);
  return textReading({
    cfg,
    family: "qwen3_asr",
    ...d,
    tied,
    towers: [qwenAudioTower(th.sub("audio_config")), textTower(d, layers, tied)],
    kvLayers: layers.map(() => fullKv(d.kvHeads, d.headDim)),
    warnings,
  });
}
