import { createContext, useContext } from "react";
import { graphql } from "../gql";
import type { MeQuery } from "../gql/graphql";

export const MeDocument = graphql(`
  query Me {
    me {
      id
      username
      displayName
      email
      isSuperAdmin
      activeGroup {
        id
        name
        organization {
          id
          name
        }
      }
      memberships {
        role
        group {
          id
          name
          organization {
            id
            name
          }
        }
      }
      adminOf {
        id
        name
        slug
      }
    }
  }
`);

export type Me = NonNullable<MeQuery["me"]>;

export interface AdminScope {
  any: boolean;
  superAdmin: boolean;
  orgAdmin: boolean;
  groupAdmin: boolean;
}

/** Which admin screens to show. The server still decides per object; this only hides
 * navigation a user could not use. */
export function adminScope(me: Pick<Me, "isSuperAdmin" | "adminOf" | "memberships"> | null | undefined): AdminScope {
  if (!me) return { any: false, superAdmin: false, orgAdmin: false, groupAdmin: false };
  const superAdmin = me.isSuperAdmin;
  const orgAdmin = me.adminOf.length > 0 || me.memberships.some((m) => m.role === "ORG_ADMIN");
  const groupAdmin = me.memberships.some((m) => m.role === "GROUP_ADMIN");
  return { any: superAdmin || orgAdmin || groupAdmin, superAdmin, orgAdmin, groupAdmin };
}

export interface ViewerContextValue {
  me: Me;
  admin: AdminScope;
  refresh(): void;
}

export const ViewerContext = createContext<ViewerContextValue | null>(null);

export function useViewer(): ViewerContextValue {
  const v = useContext(ViewerContext);
  if (!v) throw new Error("useViewer outside the signed-in shell");
  return v;
}
