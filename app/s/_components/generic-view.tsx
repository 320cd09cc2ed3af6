// Anything shared that has no page of its own (a questions run, or a body that no
// longer fits its schema): what it is about, its status and dates, and why it failed.
import { capitalised, when, type GenericSummary } from "../_lib/view";
import { Facts, Failure, ShareHeading, Tag, statusTone } from "./bits";

export function GenericView({ summary }: { summary: GenericSummary }) {
  return (
    <>
      <ShareHeading kicker={capitalised(summary.what)} title={summary.subject ?? capitalised(summary.what)}>
        <Facts
          items={[
            ["Status", summary.status ? <Tag tone={statusTone(summary.status)}>{summary.status}</Tag> : "—"],
            ["Created", when(summary.createdAt)],
            ["Finished", when(summary.completedAt)],
          ]}
        />
      </ShareHeading>
      {summary.status === "failed" || summary.error ? <Failure what={`The ${summary.what.toLowerCase()}`} message={summary.error} /> : null}
      <p className="text-slate-600">This page shows a summary; the full record is in the JSON linked below.</p>
    </>
  );
}
