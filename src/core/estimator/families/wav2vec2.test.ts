import { describe, expect, it } from "vitest";
import { modelFixture as fixture, readConfig as read } from "../../../../test/helpers/model-fixtures.ts";
import { estimate } from "../estimate.ts";
import { countParams } from "../params.ts";

const FIXTURES = [
  "facebook__wav2vec2-base-960h__ctc-copy",
  "facebook__wav2vec2-lv-60-espeak-cv-ft",
  "TencentGameMate__chinese-hubert-base",
];

describe("wav2vec2 / hubert against published totals", () => {
  for (const dir of FIXTURES) {
    it(`${dir}: derived == published`, () => {
      const { config, truth } = fixture(dir);
      expect(estimate(config).params.total).toBe(truth);
    });
  }
});

describe("wav2vec2 / hubert structure", () => {
  const base = fixture("facebook__wav2vec2-base-960h__ctc-copy").config;
  const large = fixture("facebook__wav2vec2-lv-60-espeak-cv-ft").config;

  it("the conv feature encoder takes 30 s of 16 kHz audio down to 1499 frames, one node per conv layer", () => {
    const r = read(base);
    const audio = r.towers[0]!;
    expect([audio.name, audio.role, audio.seqLen]).toEqual(["audio", "audio", 1499]);
    const convs = audio.nodes.filter((n) => n.name.startsWith("audio.FeatureEncoder."));
    expect(convs.map((n) => n.shape[0])).toEqual([95999, 47999, 23999, 11999, 5999, 2999, 1499]);
    // group norm on layer 0 only (base); the conv outputs are stored per sample, not per frame
    expect(convs[0]!.params).toBe(512 * 10 + 2 * 512);
    expect(convs[0]!.actBytesPerSample).toBe(2 * 95999 * 512 * 3);
    expect(convs[1]!.actBytesPerSample).toBe(2 * 47999 * 512 * 2);
    expect(r.kvLayers).toEqual([]);
  });

  it("the positional conv keeps weight_v, a weight_g of kernel scalars and a bias", () => {
    const pos = read(base).towers[0]!.nodes.find((n) => n.name === "audio.PosConvEmbed")!;
    expect(pos.params).toBe(768 * (768 / 16) * 128 + 128 + 768);
  });

  it("post-norm (base) layers end in a LayerNorm; stable-layer-norm (large) layers start with one", () => {
    const layer = (cfg: typeof base) =>
      read(cfg)
        .towers[0]!.nodes.filter((n) => n.layer === 1)
        .map((n) => n.type);
    expect(layer(base)).toEqual(["Multi-Head Attn", "Add", "LayerNorm", "GELU MLP", "Add", "LayerNorm"]);
    expect(layer(large)).toEqual(["LayerNorm", "Multi-Head Attn", "Add", "LayerNorm", "GELU MLP", "Add"]);
  });

  it("the CTC head follows vocab_size; the bare model has none", () => {
    const r = read(large);
    expect(r.towers[0]!.nodes.at(-1)).toMatchObject({
      name: "audio.LMHead",
      params: 1024 * 392 + 392,
      outputHead: true,
    });
    const bare = read({ ...large, architectures: ["Wav2Vec2Model"] });
    expect(countParams(r).total - countParams(bare).total).toBe(1024 * 392 + 392);
  });

  it("HuBERT's feature projection LayerNorm is optional (feat_proj_layer_norm)", () => {
    const hubert = fixture("TencentGameMate__chinese-hubert-base").config;
    const withNorm = countParams(read(hubert)).total;
    expect(withNorm - countParams(read({ ...hubert, feat_proj_layer_norm: false })).total).toBe(2 * 512);
  });

  it("masked_spec_embed exists only while masking is on", () => {
    const off = countParams(read({ ...base, mask_time_prob: 0, mask_feature_prob: 0 })).total;
    expect(countParams(read(base)).total - off).toBe(768);
  });

  it("adapter_attn_dim (MMS) adds an attention adapter to every stable-layer-norm layer, not to post-norm ones", () => {
    const adapters =
      countParams(read({ ...large, adapter_attn_dim: 16 })).total - countParams(read(large)).total;
    expect(adapters).toBe(24 * (2 * 1024 + 1024 * 16 + 16 + 16 * 1024 + 1024));
    expect(countParams(read({ ...base, adapter_attn_dim: 16 })).total).toBe(countParams(read(base)).total);
  });

  it("a conv_kernel list that does not match conv_dim names the key", () => {
    expect(() => read({ ...base, conv_kernel: [10, 3] })).toThrow(/conv_kernel/);
  });
});
