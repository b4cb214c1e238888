import { graphql } from "../gql";

export const AccountFieldsFragment = graphql(`
  fragment AccountFields on Account {
    id
    kind
    ownerId
    name
    balance {
      micro
      credits
    }
    held {
      micro
      credits
    }
    available {
      micro
      credits
    }
  }
`);

export const MyWalletSubscription = graphql(`
  subscription MyWalletLive {
    myWallet {
      ...AccountFields
    }
  }
`);

export const LedgerHistoryDocument = graphql(`
  query LedgerHistory($account: AccountInput, $kind: TransferKind, $since: DateTime, $until: DateTime, $first: Int, $after: String) {
    ledgerHistory(account: $account, kind: $kind, since: $since, until: $until, first: $first, after: $after) {
      totalCount
      pageInfo {
        hasNextPage
        endCursor
      }
      nodes {
        id
        seq
        kind
        createdAt
        memo
        amount {
          micro
          credits
        }
        source {
          kind
          accountId
          name
        }
        destination {
          kind
          accountId
          name
        }
      }
    }
  }
`);
