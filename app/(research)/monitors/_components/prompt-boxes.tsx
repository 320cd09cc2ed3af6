"use client";
// A monitor's prompts one box each, for "What it measures" when a prompt spans several lines (a
// prompt made with the API, say), which a one-per-line box cannot hold: each prompt its own text
// box (`prompt`, once per box, in order), removed with its button, and "Add a prompt" for a new
// empty one. The prompts as they were go along as `was_prompt`, so that the action sends the
// prompts only when they changed (app/(research)/_lib/lines.ts promptBoxes reads both alike).
import { useState } from "react";
import { inputClass, subtleButtonClass } from "../../../_components/ui";

type Box = { key: number; text: string };

export function PromptBoxes({ prompts, markets, limit }: { prompts: readonly string[]; markets: readonly (string | null)[]; limit: number }) {
  const [boxes, setBoxes] = useState<Box[]>(() => prompts.map((text, key) => ({ key, text })));
  const [next, setNext] = useState(prompts.length);
  return (
    <fieldset className="grid gap-2" data-testid="measure-prompt-boxes">
      <legend className="mb-1 font-medium text-slate-700">Prompts, one box each</legend>
      <input type="hidden" name="prompts_mode" value="each" />
      {prompts.map((text, i) => (
        <input key={i} type="hidden" name="was_prompt" value={text} />
      ))}
      <p className="text-xs text-slate-500">
        A prompt here spans several lines, so each prompt has its own box. Up to {limit}; an empty box is skipped. A prompt kept as it was keeps
        its question and market.
      </p>
      {boxes.map((box, i) => (
        <div key={box.key} className="grid gap-1" data-testid="measure-prompt-box">
          <div className="flex items-center justify-between gap-2 text-xs text-slate-500">
            <span>
              Prompt {i + 1}
              {box.key < prompts.length && markets[box.key] ? ` · its own market: ${markets[box.key]}` : ""}
            </span>
            <button
              type="button"
              className="text-rose-700 hover:underline"
              aria-label={`Remove prompt ${i + 1}`}
              onClick={() => setBoxes((all) => all.filter((b) => b.key !== box.key))}
            >
              Remove
            </button>
          </div>
          <textarea
            name="prompt"
            aria-label={`Prompt ${i + 1}`}
            value={box.text}
            onChange={(event) => {
              const text = event.target.value;
              setBoxes((all) => all.map((b) => (b.key === box.key ? { ...b, text } : b)));
            }}
            rows={Math.min(8, Math.max(2, box.text.split("\n").length + 1))}
            className={`${inputClass} w-full`}
          />
        </div>
      ))}
      <div>
        <button
          type="button"
          className={subtleButtonClass}
          disabled={boxes.length >= limit}
          onClick={() => {
            setBoxes((all) => [...all, { key: next, text: "" }]);
            setNext((n) => n + 1);
          }}
          data-testid="measure-add-prompt"
        >
          Add a prompt
        </button>
      </div>
    </fieldset>
  );
}
