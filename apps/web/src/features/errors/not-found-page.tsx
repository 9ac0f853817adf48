import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { useMessages } from '../../i18n/messages';

export function NotFoundPage() {
  const m = useMessages();
  return (
    <div className="flex flex-col items-center py-16 text-center sm:py-24">
      <title>{m.app.documentTitle(m.notFound.title)}</title>
      <p className="font-mono text-sm font-medium text-muted-foreground">{m.notFound.code}</p>
      <h1 className="mt-3 text-3xl font-semibold tracking-tight text-foreground sm:text-4xl">{m.notFound.title}</h1>
      <p className="mt-3 max-w-md text-sm text-pretty text-muted-foreground sm:text-base">{m.notFound.description}</p>
      <Link
        to="/"
        className="mt-8 inline-flex h-9 items-center gap-2 rounded-md bg-primary px-4 text-sm font-medium text-primary-foreground shadow-xs transition-colors hover:bg-primary/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        {m.notFound.backHome}
      </Link>
    </div>
  );
}
