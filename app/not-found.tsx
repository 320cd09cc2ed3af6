// The 404 page of every browser path, in the app's look (API paths answer the JSON envelope).
import { Page, subtleButtonClass } from "./_components/ui";

export default function NotFound() {
  return (
    <Page title="Not found">
      <div className="max-w-lg space-y-4">
        <p className="text-slate-700">There is no page at this address. The link may be mistyped, or what it pointed to is gone.</p>
        <div className="flex flex-wrap gap-2">
          <a href="/" className={subtleButtonClass}>
            Home
          </a>
          <a href="/account" className={subtleButtonClass}>
            Your account
          </a>
        </div>
      </div>
    </Page>
  );
}
