"use client";
// One way for every form of the pages to post to its server action: what was typed stays in the
// form when the action refuses it (React resets a form whose `action` ran, so a refused prompt,
// URL or domain would have to be typed again). The form keeps `action` too, so it also posts
// before the page's JavaScript has loaded.
import { startTransition, useActionState, useEffect, useRef, type FormEvent } from "react";

export type FormOutcome = { ok: boolean };

export function useFormAction<S extends FormOutcome>(
  action: (previous: S, form: FormData) => Promise<S>,
  initial: S,
  options: {
    /** Clear the form once the action succeeded (a form that creates something, ready for the next). */
    resetOnSuccess?: boolean;
  } = {},
) {
  const [state, dispatch, pending] = useActionState<S, FormData>(action as (previous: Awaited<S>, form: FormData) => Promise<S>, initial as Awaited<S>);
  const ref = useRef<HTMLFormElement>(null);
  const first = useRef(state);
  const { resetOnSuccess = false } = options;
  useEffect(() => {
    if (resetOnSuccess && state !== first.current && state.ok) ref.current?.reset();
  }, [state, resetOnSuccess]);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    // Calling the action ourselves (not through React's form action) leaves the fields as they are.
    event.preventDefault();
    const data = new FormData(event.currentTarget, (event.nativeEvent as SubmitEvent).submitter);
    startTransition(() => dispatch(data));
  };
  return { state, pending, form: { ref, action: dispatch, onSubmit } };
}
