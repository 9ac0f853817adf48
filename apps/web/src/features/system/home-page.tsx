import { PageHeader } from '@app/ui';
import { useStatusMessages } from '../../i18n/status-messages';
import { ServiceStatusCard } from './service-status-card';

export function HomePage() {
  const m = useStatusMessages();
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
