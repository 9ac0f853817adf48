import { webhookDeliveriesListQuery } from '@app/contracts';
import { defineResourceList } from '../../lib/resource-list/define-resource-list';

/** An endpoint's delivery log, declared from its contract: a fixed view, its state in the endpoint page's URL. */
export const deliveryList = defineResourceList(webhookDeliveriesListQuery);
