// The Inngest serve endpoint: Inngest calls it to run the step functions (when INNGEST_EVENT_KEY
// or INNGEST_DEV is set; otherwise the local driver runs them in-process).
import { serve } from "inngest/next";
import { inngest } from "@/inngest/client";
import { executeRunFunction } from "@/inngest/functions/execute-run";

export const { GET, POST, PUT } = serve({ client: inngest, functions: [executeRunFunction] });
