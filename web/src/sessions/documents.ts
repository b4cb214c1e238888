import { graphql } from "../gql";

export const SessionFieldsFragment = graphql(`
  fragment SessionFields on Session {
    id
    name
    kind
    state
    stateReason
    stateReasonCode
    stateReasonParams {
      name
      value
    }
    imageReference
    cpuMillicores
    memoryMib
    diskGib
    shmMib
    expiry
    expiresAt
    createdAt
    startedAt
    remainingSeconds
    expiryWarning
    runningSeconds
    costSoFar {
      credits
    }
    charged {
      credits
    }
    gpu {
      offeringName
      placedModel
      vramMib
      cores
      cards
      exclusive
      shared
      ratio
      kind
      hourlyCost {
        micro
        credits
      }
    }
    endpoints {
      vscode
      jupyterlab
      terminal
      ssh
    }
    mounts {
      volumeId
      volumeName
      mountPath
      mode
    }
    group {
      name
    }
    templateName
    approver {
      username
      displayName
    }
    placement {
      clusterId
      nodeId
      kind
      cardUuids
      migInstanceId
    }
    queuePosition {
      offering
      position
      length
    }
  }
`);

export const MySessionsSubscription = graphql(`
  subscription MySessionsLive {
    mySessions {
      ...SessionFields
    }
  }
`);

export const SessionStatusSubscription = graphql(`
  subscription SessionStatus($id: ID!) {
    sessionStatus(id: $id) {
      ...SessionFields
    }
  }
`);

/** What the meter has charged so far, re-read while the session runs (the meter charges each
 * minute and publishes no status change for it). */
export const SessionChargedQuery = graphql(`
  query SessionCharged($id: ID!) {
    node(id: $id) {
      ... on Session {
        id
        runningSeconds
        charged {
          credits
        }
      }
    }
  }
`);

export const SessionUsageSubscription = graphql(`
  subscription SessionUsageLive($sessionId: ID!) {
    sessionUsage(sessionId: $sessionId) {
      at
      cpuMillicores
      memoryMib
      gpuUtilPercent
      gpuMemoryMib
    }
  }
`);


export const SessionPauseDocument = graphql(`
  mutation SessionPause($input: IdInput!) {
    sessionPause(input: $input) {
      session {
        ...SessionFields
      }
      errors {
        params {
          name
          value
        }
        code
        field
        message
      }
    }
  }
`);

export const SessionResumeDocument = graphql(`
  mutation SessionResume($input: IdInput!) {
    sessionResume(input: $input) {
      session {
        ...SessionFields
      }
      errors {
        params {
          name
          value
        }
        code
        field
        message
      }
    }
  }
`);

export const SessionStopDocument = graphql(`
  mutation SessionStop($input: IdInput!) {
    sessionStop(input: $input) {
      session {
        ...SessionFields
      }
      errors {
        params {
          name
          value
        }
        code
        field
        message
      }
    }
  }
`);

export const SessionExtendDocument = graphql(`
  mutation SessionExtend($input: SessionExtendInput!) {
    sessionExtend(input: $input) {
      session {
        ...SessionFields
      }
      errors {
        params {
          name
          value
        }
        code
        field
        message
      }
    }
  }
`);

export const SessionCreateDocument = graphql(`
  mutation SessionCreate($input: SessionCreateInput!) {
    sessionCreate(input: $input) {
      session {
        id
        state
        stateReason
      }
      errors {
        params {
          name
          value
        }
        code
        field
        message
      }
    }
  }
`);
