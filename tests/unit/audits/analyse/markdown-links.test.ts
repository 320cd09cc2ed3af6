// <link rel="alternate" type="text/markdown"> targets.
import { describe, expect, it } from "vitest";
import { markdownLinks } from "@/lib/audits/analyse/markdown-links";
import { page } from "./helpers";

describe("markdownLinks", () => {
  it("lists markdown alternates, absolute, each once, in order", () => {
    const html = `<head><link rel="alternate" type="text/markdown" href="/blog/post.md">
      <link rel="Alternate" type="text/markdown; charset=utf-8" href="https://cdn.example.com/post.md">
      <link rel="alternate" type="text/markdown" href="post.md">
      <link rel="alternate" type="application/rss+xml" href="/feed.xml"><link rel="canonical" type="text/markdown" href="/x.md">
      <link rel="alternate" type="text/markdown" href="javascript:alert(1)"><link rel="alternate" type="text/markdown"></head>`;
    expect(markdownLinks(page(html))).toEqual(["https://www.example.com/blog/post.md", "https://cdn.example.com/post.md"]);
  });

  it("is empty without any", () => {
    expect(markdownLinks(page(""))).toEqual([]);
  });
});
