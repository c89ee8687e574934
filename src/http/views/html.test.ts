import { describe, expect, it } from "vitest";
import { escapeHtml, html, raw } from "./html.ts";

describe("html", () => {
  it("escapes interpolated values, including nested arrays", () => {
    const t = "<script>alert('x')</script>";
    expect(html`<p>${t}</p>`.__html).toBe("<p>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;</p>");
    expect(html`<ul>${["<a>", html`<li>${"&"}</li>`]}</ul>`.__html).toBe("<ul>&lt;a&gt;<li>&amp;</li></ul>");
  });
  it("passes raw() and nested html through, drops null/undefined/false", () => {
    expect(html`${raw("<b>")}${null}${undefined}${false}${0}`.__html).toBe("<b>0");
    expect(escapeHtml('"`')).toBe("&quot;&#96;");
  });
});
