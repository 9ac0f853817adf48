import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTRPC } from '../../lib/trpc';

/** The attributes an import's column can fill, from the import's choices (the query the options already ask). */
export function useImportAttributes() {
  const trpc = useTRPC();
  const choices = useQuery({ ...trpc.imports.new.queryOptions(), retry: false });
  const attributes = choices.data?.attributes;
  return useMemo(() => {
    const list = attributes ?? [];
    return {
      /** `attributes.<key>` and its label, in the declared order. */
      targets: list.map((a) => ({ value: `attributes.${a.key}` as const, label: a.label })),
      /** A column's field in words: an attribute's label, else what `fallback` says. */
      labelOf: (field: string, fallback: (field: string) => string) =>
        list.find((a) => `attributes.${a.key}` === field)?.label ?? fallback(field),
    };
  }, [attributes]);
}
