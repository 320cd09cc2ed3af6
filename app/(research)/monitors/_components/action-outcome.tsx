"use client";
// The line under a monitor page's controls: the latest of their actions' outcomes (a refusal, a
// warning or a success), newest by when each answered.
import { Notice } from "../../../_components/ui";
import type { MonitorActionState } from "../_lib/acting";

export function ActionOutcome({ states, testId }: { states: MonitorActionState[]; testId: string }) {
  const latest = states.filter((s) => s.message).sort((a, b) => (b.at ?? 0) - (a.at ?? 0))[0];
  if (!latest?.message) return null;
  return (
    <div className="mt-3" data-testid={testId}>
      <Notice tone={!latest.ok ? "error" : latest.warn ? "warn" : "success"}>{latest.message}</Notice>
    </div>
  );
}
