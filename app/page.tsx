export default function Home() {
  return (
    <main className="mx-auto max-w-2xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">geoscope</h1>
      <p className="mt-3 text-slate-600">
        Research tooling for generative-engine optimization: what ChatGPT, Claude and Gemini answer about a topic,
        which pages they cite, and which web searches they run to get there.
      </p>
      <ul className="mt-8 space-y-2">
        <li>
          <a className="text-indigo-700 underline" href="/account">
            Your account
          </a>{" "}
          <span className="text-slate-500">— sign in; API keys, workspaces, members, invitations, projects.</span>
        </li>
        <li>
          <a className="text-indigo-700 underline" href="/projects">
            Your projects
          </a>{" "}
          <span className="text-slate-500">— run prompts and fanouts, generate questions, audit pages, read answers and citations.</span>
        </li>
        <li>
          <a className="text-indigo-700 underline" href="/api/v1/docs">
            API explorer
          </a>{" "}
          <span className="text-slate-500">— every endpoint of /api/v1, with try-it-out.</span>
        </li>
        <li>
          <a className="text-indigo-700 underline" href="/api/v1/openapi.json">
            OpenAPI document
          </a>
        </li>
      </ul>
    </main>
  );
}
