import { useQuery } from "urql";
import { graphql } from "../gql";

const OrganizationOptionsDocument = graphql(`
  query OrganizationOptions {
    organizations(first: 100) {
      nodes {
        id
        name
        viewerIsAdmin
      }
    }
  }
`);

const RegistryOptionsDocument = graphql(`
  query RegistryOptions {
    registries(first: 100) {
      nodes {
        id
        name
        url
      }
    }
  }
`);

const OfferingOptionsDocument = graphql(`
  query OfferingOptions {
    offerings(first: 100) {
      nodes {
        id
        vendor
        name
        vramMib
        enabled
        minCuda
        hourlyRate {
          credits
        }
      }
    }
  }
`);

/** Choices for select inputs (the first 100; the API caps a page there). */
export function useOrganizationOptions(adminOnly = false) {
  const [r] = useQuery({ query: OrganizationOptionsDocument });
  return (r.data?.organizations.nodes ?? [])
    .filter((o) => !adminOnly || o.viewerIsAdmin)
    .map((o) => ({ value: o.id, label: o.name }));
}

export function useRegistryOptions() {
  const [r] = useQuery({ query: RegistryOptionsDocument });
  return (r.data?.registries.nodes ?? []).map((o) => ({ value: o.id, label: `${o.name} (${o.url})` }));
}

export function useOfferings() {
  const [r] = useQuery({ query: OfferingOptionsDocument });
  return r.data?.offerings.nodes ?? [];
}
