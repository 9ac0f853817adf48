import { PageHeader } from '@app/ui';
import { useMessages } from '../../i18n/messages';
import { ServiceStatusCard } from './service-status-card';

export function HomePage() {
  const m = useMessages();
  return (
    <>
      <title>{m.app.documentTitle(m.home.title)}</title>
      <PageHeader title={m.home.title} description={m.home.subtitle} />
      <div className="mt-8 max-w-2xl">
        <ServiceStatusCard />
      </div>
    </>
  );
}
