// A monitor's prompts, numbered, each with its own market when it has one.
import { marketText } from "../../_components/market";

type Located = { country: string; region?: string; city?: string; timezone?: string } | null | undefined;

export function PromptList({ prompts, className = "", testId }: { prompts: { text: string; location?: Located; language?: string | null }[]; className?: string; testId?: string }) {
  return (
    <ol className={`space-y-1 text-sm ${className}`} data-testid={testId}>
      {prompts.map((p, i) => {
        const market = marketText(p.location ?? null, p.language ?? null);
        return (
          <li key={i} className="flex gap-2">
            <span className="text-slate-400 tabular-nums">{i + 1}.</span>
            <span className="min-w-0 break-words">
              {p.text}
              {market ? <span className="ml-2 text-xs text-slate-500">{market}</span> : null}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
