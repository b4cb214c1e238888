/* eslint-disable */
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
export type MakeOptional<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]?: Maybe<T[SubKey]> };
export type MakeMaybe<T, K extends keyof T> = Omit<T, K> & { [SubKey in K]: Maybe<T[SubKey]> };
export type MakeEmpty<T extends { [key: string]: unknown }, K extends keyof T> = { [_ in K]?: never };
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** A 64-bit integer (money in micro-credits). Accepts a number or a string of digits. */
  BigInt: { input: string | number; output: string | number; }
  /** Date with time (isoformat) */
  DateTime: { input: string; output: string; }
  /** The `JSON` scalar type represents JSON values as specified by [ECMA-404](https://ecma-international.org/wp-content/uploads/ECMA-404_2nd_edition_december_2017.pdf). */
  JSON: { input: any; output: any; }
};

/** A ledger account with its balance: available = balance − held (open holds). A user's account is their personal wallet. */
export type Account = Node & {
  __typename?: 'Account';
  /** balance − held: what may be spent or given now. */
  available: Credits;
  /** Everything credited minus everything debited (the SYSTEM account goes negative). */
  balance: Credits;
  /** Reserved by open holds. */
  held: Credits;
  /** The holds of a personal wallet, newest first (empty for other accounts). */
  holds: Array<CreditHold>;
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  kind: AccountKind;
  /** The owner's name (user name for personal wallets). */
  name: Scalars['String']['output'];
  /** Global ID of the owning Organization, Group or User; null for SYSTEM. */
  ownerId?: Maybe<Scalars['ID']['output']>;
};


/** A ledger account with its balance: available = balance − held (open holds). A user's account is their personal wallet. */
export type AccountHoldsArgs = {
  includeClosed?: Scalars['Boolean']['input'];
};

export type AccountConnection = {
  __typename?: 'AccountConnection';
  edges: Array<AccountEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Account>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type AccountEdge = {
  __typename?: 'AccountEdge';
  cursor: Scalars['String']['output'];
  node: Account;
};

/** Names a ledger account: `id` is the Account's global ID, or the global ID of its owning Organization, Group or User with `kind` (ORGANIZATION, CONSUMPTION, GROUP, USER; inferred from the id when omitted). SYSTEM takes no id. */
export type AccountInput = {
  id?: InputMaybe<Scalars['ID']['input']>;
  kind?: InputMaybe<AccountKind>;
};

/** SYSTEM issues credits; ORGANIZATION, GROUP and USER (personal wallet) hold them; CONSUMPTION is an organisation's sink that charges flow into. */
export type AccountKind =
  | 'CONSUMPTION'
  | 'GROUP'
  | 'ORGANIZATION'
  | 'SYSTEM'
  | 'USER';

/** One side of a transfer: which account, without its balance (see `Account`). */
export type AccountRef = {
  __typename?: 'AccountRef';
  /** Global ID of the `Account`. */
  accountId: Scalars['ID']['output'];
  kind: AccountKind;
  /** The owner's name (user name for personal wallets). */
  name: Scalars['String']['output'];
  /** Global ID of the owning Organization, Group or User; null for SYSTEM. */
  ownerId?: Maybe<Scalars['ID']['output']>;
};

export type ActiveGroupSetInput = {
  groupId: Scalars['ID']['input'];
};

/** A change among the sessions you administer (or your own, if you administer none). */
export type AdminSessionsChange = {
  __typename?: 'AdminSessionsChange';
  /** How many sessions wait for your approval now. */
  pendingApprovals: Scalars['Int']['output'];
  /** The sessions that changed since the previous event (none in the first, the current state). */
  sessionIds: Array<Scalars['ID']['output']>;
};

export type AllocationView = {
  __typename?: 'AllocationView';
  cardUuids: Array<Scalars['String']['output']>;
  cores: Scalars['Int']['output'];
  cpuMillicores: Scalars['Int']['output'];
  kind: GpuKind;
  memoryMib: Scalars['Int']['output'];
  ratio: Scalars['String']['output'];
  /** Global ID of the session, when visible to you. */
  sessionId?: Maybe<Scalars['ID']['output']>;
  /** Its name, when visible to you. */
  sessionName?: Maybe<Scalars['String']['output']>;
  vramMib: Scalars['Int']['output'];
};

/** Who did what to which object, when, and how it went. */
export type AuditEntry = Node & {
  __typename?: 'AuditEntry';
  /** Global ID of the acting User, if any. */
  actorUserId?: Maybe<Scalars['ID']['output']>;
  actorUsername?: Maybe<Scalars['String']['output']>;
  at: Scalars['DateTime']['output'];
  clientIp?: Maybe<Scalars['String']['output']>;
  durationMs: Scalars['Int']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  operation: Scalars['String']['output'];
  requestId?: Maybe<Scalars['String']['output']>;
  resultCode: Scalars['String']['output'];
  success: Scalars['Boolean']['output'];
  /** The target's own id (a UUID or a name for failed creations). */
  targetId?: Maybe<Scalars['String']['output']>;
  /** The target's name when it still exists and is a user (username), an organisation, a group, an offering, a registry or a volume; null otherwise (use targetId). */
  targetName?: Maybe<Scalars['String']['output']>;
  targetType?: Maybe<Scalars['String']['output']>;
};

export type AuditEntryConnection = {
  __typename?: 'AuditEntryConnection';
  edges: Array<AuditEntryEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<AuditEntry>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type AuditEntryEdge = {
  __typename?: 'AuditEntryEdge';
  cursor: Scalars['String']['output'];
  node: AuditEntry;
};

export type AuditFilterInput = {
  actorId?: InputMaybe<Scalars['ID']['input']>;
  operation?: InputMaybe<Scalars['String']['input']>;
  organizationId?: InputMaybe<Scalars['ID']['input']>;
  since?: InputMaybe<Scalars['DateTime']['input']>;
  success?: InputMaybe<Scalars['Boolean']['input']>;
  targetId?: InputMaybe<Scalars['String']['input']>;
  targetType?: InputMaybe<Scalars['String']['input']>;
  until?: InputMaybe<Scalars['DateTime']['input']>;
};

/** A periodic job run by the workers, once per period. */
export type BackgroundJob = {
  __typename?: 'BackgroundJob';
  description: Scalars['String']['output'];
  /** The last run's error, when it failed. */
  lastError?: Maybe<Scalars['String']['output']>;
  /** The last run's outcome (null before the first run). */
  lastOutcome?: Maybe<BackgroundJobOutcome>;
  /** The most recent period that started. */
  lastRun?: Maybe<BackgroundJobRun>;
  lastSuccess?: Maybe<BackgroundJobRun>;
  name: Scalars['String']['output'];
  /** When the next period is claimed (now when overdue). */
  nextDueAt: Scalars['DateTime']['output'];
  /** The cadence in words, e.g. "every 1 min". */
  period: Scalars['String']['output'];
  periodSeconds: Scalars['Int']['output'];
};

/** One number of a run's summary, by name. */
export type BackgroundJobCount = {
  __typename?: 'BackgroundJobCount';
  name: Scalars['String']['output'];
  /** A number as text (credits keep their decimals). */
  value: Scalars['String']['output'];
};

/** PENDING: claimed, waiting for a worker; RUNNING: an attempt started; SUCCEEDED; FAILED: the last attempt failed (retries may follow); COALESCED: folded into a later period after an outage. */
export type BackgroundJobOutcome =
  | 'COALESCED'
  | 'FAILED'
  | 'PENDING'
  | 'RUNNING'
  | 'SUCCEEDED';

/** One period of a periodic job. */
export type BackgroundJobRun = {
  __typename?: 'BackgroundJobRun';
  /** Executions started for this period (retries and redeliveries). */
  attempts: Scalars['Int']['output'];
  claimedAt: Scalars['DateTime']['output'];
  /** The summary's numbers by name, from which a console says it in its language (empty for runs recorded before they were kept). */
  counts: Array<BackgroundJobCount>;
  durationSeconds?: Maybe<Scalars['Float']['output']>;
  error?: Maybe<Scalars['String']['output']>;
  finishedAt?: Maybe<Scalars['DateTime']['output']>;
  outcome: BackgroundJobOutcome;
  periodEnd: Scalars['DateTime']['output'];
  periodStart: Scalars['DateTime']['output'];
  startedAt?: Maybe<Scalars['DateTime']['output']>;
  /** What the run did, in one line (English). */
  summary?: Maybe<Scalars['String']['output']>;
};

/** A credit limit over a scope's total spend in each period. */
export type Budget = Node & {
  __typename?: 'Budget';
  action: BudgetAction;
  /** Percentages of the limit that raise alerts. */
  alertThresholds: Array<Scalars['Int']['output']>;
  createdAt: Scalars['DateTime']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  limit: Credits;
  period: BudgetPeriod;
  scope: Scope;
  /** Spend in the current period against the limit. */
  status: BudgetStatus;
  updatedAt: Scalars['DateTime']['output'];
  /** The User who last set it. */
  updatedBy?: Maybe<Scalars['ID']['output']>;
};

/** WARN admits and notifies; BLOCK refuses new GPU sessions. */
export type BudgetAction =
  | 'BLOCK'
  | 'WARN';

/** Whether a user may start GPU work in a group now, by budgets. */
export type BudgetGate = {
  __typename?: 'BudgetGate';
  allowed: Scalars['Boolean']['output'];
  /** Why not, when refused; empty otherwise. */
  message: Scalars['String']['output'];
  /** The BLOCK budget that refuses, if any. */
  refusal?: Maybe<BudgetStatus>;
  /** Every budget on the chain: user, group, org. */
  statuses: Array<BudgetStatus>;
  /** Budgets past an alert threshold. */
  warnings: Array<BudgetStatus>;
};

export type BudgetPayload = {
  __typename?: 'BudgetPayload';
  budget?: Maybe<Budget>;
  errors: Array<UserError>;
};

/** UTC periods; weeks start on Monday. */
export type BudgetPeriod =
  | 'DAILY'
  | 'MONTHLY'
  | 'WEEKLY';

/** Create or replace the budget of a scope for one period length. */
export type BudgetSetInput = {
  action: BudgetAction;
  /** Increasing percentages, 1–1000. */
  alertThresholds?: Array<Scalars['Int']['input']>;
  /** The credit limit per period, in micro-credits. */
  limitMicro: Scalars['BigInt']['input'];
  period?: BudgetPeriod;
  scope: ScopeInput;
};

/** A budget in one period: what the scope (with descendants) spent. */
export type BudgetStatus = {
  __typename?: 'BudgetStatus';
  budget: Budget;
  crossedThresholds: Array<Scalars['Int']['output']>;
  /** The limit is reached: any further spend goes over it. */
  exceeded: Scalars['Boolean']['output'];
  limit: Credits;
  /** spent / limit × 100; null for a zero limit with spend. */
  percentUsed?: Maybe<Scalars['Float']['output']>;
  /** Exclusive. */
  periodEnd: Scalars['DateTime']['output'];
  periodStart: Scalars['DateTime']['output'];
  scopeName: Scalars['String']['output'];
  spent: Credits;
};

/** Capacity per GPU resource and per model, physical and logical. */
export type Capacity = {
  __typename?: 'Capacity';
  byModel: Array<CapacityRow>;
  byResource: Array<CapacityRow>;
  models: Array<ModelCapacity>;
};

/** One row of a capacity view: a GPU resource (and model), physical cards and logical units. */
export type CapacityRow = {
  __typename?: 'CapacityRow';
  kind: GpuKind;
  logical: Counts;
  model?: Maybe<Scalars['String']['output']>;
  physical: Counts;
  /** Kubernetes resource name, e.g. nvidia.com/gpu.shared. */
  resource: Scalars['String']['output'];
  /** Units are shared between workloads (HAMi fractions, time-slices). */
  shared: Scalars['Boolean']['output'];
  /** Sum of placed ratios in whole cards. */
  usedCardEquivalents: Scalars['Float']['output'];
};

export type Card = {
  __typename?: 'Card';
  cores: Scalars['Int']['output'];
  freeCores: Scalars['Int']['output'];
  freeVramMib: Scalars['Int']['output'];
  /** False when `uuid` is gshare's placeholder: the cluster publishes a count of these cards, not their UUIDs (only HAMi's registration names each card). */
  identified: Scalars['Boolean']['output'];
  migEnabled: Scalars['Boolean']['output'];
  migInstances: Array<MigInstance>;
  model: Scalars['String']['output'];
  /** Cards this entry stands for: more than 1 for a MIG group, cards in MIG mode whose instances the node lists only per profile, so which card holds which instance is not known. */
  physicalCount: Scalars['Int']['output'];
  tenants: Array<CardTenant>;
  timesliceReplicas: Scalars['Int']['output'];
  uuid: Scalars['String']['output'];
  vramMib: Scalars['Int']['output'];
};

/** What makes an offering a class of cards: the scheduler picks the model. */
export type CardClass = {
  __typename?: 'CardClass';
  /** The card models it may use; empty: any model with at least the offering's vramMib. */
  models: Array<Scalars['String']['output']>;
};

/** Makes the offering a class of cards: the scheduler picks the model. */
export type CardClassInput = {
  /** The card models (offering names) it may use; empty: any model with at least vramMib. */
  models?: Array<Scalars['String']['input']>;
};

export type CardTenant = {
  __typename?: 'CardTenant';
  cores: Scalars['Int']['output'];
  /** Global ID of the session, when visible to you. */
  sessionId?: Maybe<Scalars['ID']['output']>;
  /** Its name, when visible to you. */
  sessionName?: Maybe<Scalars['String']['output']>;
  vramMib: Scalars['Int']['output'];
};

export type ClusterDeregisterInput = {
  clusterId: Scalars['String']['input'];
};

export type ClusterDeregisterPayload = {
  __typename?: 'ClusterDeregisterPayload';
  clusterId?: Maybe<Scalars['String']['output']>;
  errors: Array<UserError>;
};

export type ClusterNode = {
  __typename?: 'ClusterNode';
  /** What GPU sessions hold on this node. */
  allocations: Array<AllocationView>;
  cards: Array<Card>;
  clusterId: Scalars['String']['output'];
  clusterName: Scalars['String']['output'];
  cordoned: Scalars['Boolean']['output'];
  cpuMillicores: Scalars['Int']['output'];
  /** What CPU-only sessions hold on this node: they are placed on nodes like any session. */
  cpuOnlyAllocations: Array<CpuAllocationView>;
  freeCpuMillicores: Scalars['Int']['output'];
  freeMemoryMib: Scalars['Int']['output'];
  id: Scalars['String']['output'];
  labels: Scalars['JSON']['output'];
  memoryMib: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  placementPolicy: Scalars['String']['output'];
  schedulable: Scalars['Boolean']['output'];
  sharingMode: SharingMode;
  /** GPU resources the node still lists but no longer serves. */
  staleResources: Array<Scalars['String']['output']>;
};

export type ClusterPayload = {
  __typename?: 'ClusterPayload';
  cluster?: Maybe<RegisteredCluster>;
  errors: Array<UserError>;
};

export type ClusterPlacementPolicyUpdateInput = {
  clusterId: Scalars['String']['input'];
  placementPolicy: PlacementPolicy;
};

export type ClusterRegisterInput = {
  /** The operator's Ed25519 or P-256 public key, PEM. */
  callbackPublicKey: Scalars['String']['input'];
  /** A DNS label; the operator's --cluster-id (its callbacks' issuer). */
  id: Scalars['String']['input'];
  /** YAML; stored encrypted, never shown again. */
  kubeconfig: Scalars['String']['input'];
  name: Scalars['String']['input'];
  placementPolicy?: PlacementPolicy;
};

export type ClusterUsageSourceSetInput = {
  clusterId: Scalars['String']['input'];
  /** Sent as `Authorization: Bearer …`; stored encrypted, never shown again. */
  prometheusBearerToken?: InputMaybe<Scalars['String']['input']>;
  /** The Prometheus that scrapes this cluster's cAdvisor and DCGM/HAMi exporters (null: none). */
  prometheusUrl?: InputMaybe<Scalars['String']['input']>;
};

export type ClusterView = {
  __typename?: 'ClusterView';
  id: Scalars['String']['output'];
  kind: Scalars['String']['output'];
  name: Scalars['String']['output'];
  placementPolicy: Scalars['String']['output'];
};

/** Total / used / available units. */
export type Counts = {
  __typename?: 'Counts';
  available: Scalars['Int']['output'];
  total: Scalars['Int']['output'];
  used: Scalars['Int']['output'];
};

/** CPU and memory a CPU-only session holds on a node (it holds no card). */
export type CpuAllocationView = {
  __typename?: 'CpuAllocationView';
  cpuMillicores: Scalars['Int']['output'];
  memoryMib: Scalars['Int']['output'];
  /** Global ID of the session, when visible to you. */
  sessionId?: Maybe<Scalars['ID']['output']>;
  /** Its name, when visible to you. */
  sessionName?: Maybe<Scalars['String']['output']>;
};

/** Credits reserved in a personal wallet for a running session. */
export type CreditHold = Node & {
  __typename?: 'CreditHold';
  /** What is still reserved (zero once settled or released). */
  amount: Credits;
  /** What has been charged against it so far. */
  charged: Credits;
  createdAt: Scalars['DateTime']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  memo: Scalars['String']['output'];
  /** What was first reserved. */
  reserved: Credits;
  status: HoldStatus;
  updatedAt: Scalars['DateTime']['output'];
};

/** An amount of credits: exact micro-credits and a decimal string for display. */
export type Credits = {
  __typename?: 'Credits';
  /** Decimal credits, exact, e.g. "12.5". */
  credits: Scalars['String']['output'];
  /** Integer micro-credits. */
  micro: Scalars['BigInt']['output'];
};

/** Move credits one level down: system → organisation → group → member. */
export type CreditsAllocateInput = {
  /** Micro-credits to move (positive). */
  amountMicro: Scalars['BigInt']['input'];
  /** An account directly below the source. */
  destination: AccountInput;
  /** Chosen by the client (1–120 characters, e.g. a UUID); resending the same key returns the first transfer and moves nothing; reusing it for a different movement is refused. */
  idempotencyKey: Scalars['String']['input'];
  memo?: Scalars['String']['input'];
  /** The giving account (administered by the caller). */
  source: AccountInput;
};

/** Give every member of a group the same amount from the group's account, all or none. */
export type CreditsAllocateToGroupMembersInput = {
  /** Micro-credits per member (positive). */
  amountMicro: Scalars['BigInt']['input'];
  groupId: Scalars['ID']['input'];
  /** Chosen by the client; a replay pays nobody twice, even members who joined since. */
  idempotencyKey: Scalars['String']['input'];
  memo?: Scalars['String']['input'];
};

export type CreditsBulkTransferPayload = {
  __typename?: 'CreditsBulkTransferPayload';
  errors: Array<UserError>;
  /** Every member's transfer had already been posted. */
  replayed: Scalars['Boolean']['output'];
  /** One per member. */
  transfers: Array<LedgerTransfer>;
};

/** The cheapest and the dearest of what something may cost. */
export type CreditsRange = {
  __typename?: 'CreditsRange';
  high: Credits;
  low: Credits;
};

/** Move credits one level up, back to the parent: member → group → org → system. */
export type CreditsTakeBackInput = {
  /** Micro-credits to move (positive). */
  amountMicro: Scalars['BigInt']['input'];
  /** Its parent, administered by the caller. */
  destination: AccountInput;
  /** Chosen by the client; see CreditsAllocateInput. */
  idempotencyKey: Scalars['String']['input'];
  memo?: Scalars['String']['input'];
  /** The account credits are taken from (the child). */
  source: AccountInput;
};

export type CreditsTransferPayload = {
  __typename?: 'CreditsTransferPayload';
  errors: Array<UserError>;
  /** The idempotency key had been used for this same movement: nothing moved now. */
  replayed: Scalars['Boolean']['output'];
  transfer?: Maybe<LedgerTransfer>;
};

export type CudaCompatibility = {
  __typename?: 'CudaCompatibility';
  compatible: Scalars['Boolean']['output'];
  reason?: Maybe<Scalars['String']['output']>;
};

export type DeletePayload = {
  __typename?: 'DeletePayload';
  deletedId?: Maybe<Scalars['ID']['output']>;
  errors: Array<UserError>;
};

/** A per-person setting: its value and the scope it came from. */
export type EffectiveBooleanSetting = {
  __typename?: 'EffectiveBooleanSetting';
  /** null: the built-in default. */
  source?: Maybe<Scope>;
  value: Scalars['Boolean']['output'];
};

/** A per-person setting: its value and the scope it came from. */
export type EffectiveIntSetting = {
  __typename?: 'EffectiveIntSetting';
  /** null: the built-in default. */
  source?: Maybe<Scope>;
  /** null: unlimited / none. */
  value?: Maybe<Scalars['Int']['output']>;
};

/** An aggregate limit on the total use of the scope that set it (checked at every level). */
export type EffectiveLimit = {
  __typename?: 'EffectiveLimit';
  /** The ResourcePolicy field, e.g. maxGpus or modelCaps. */
  field: Scalars['String']['output'];
  /** For modelCaps: the offering model. */
  model?: Maybe<Scalars['String']['output']>;
  /** What is left of the limit before new work is refused (value - used, never below "0"). */
  remaining?: Maybe<Scalars['String']['output']>;
  scope: Scope;
  /** What the scope that set the limit uses now (counted as admission counts it), e.g. "2.5". */
  used?: Maybe<Scalars['String']['output']>;
  /** Exact quantity, e.g. "4" or "2.5". */
  value: Scalars['String']['output'];
};

/** What applies to one user working in one group: per-person settings from the most specific scope that sets them (user → group → organisation → global), and every aggregate limit on the chain. */
export type EffectivePolicy = {
  __typename?: 'EffectivePolicy';
  /** Clusters allowed at every level (null: any cluster). */
  allowedClusters?: Maybe<Array<Scalars['String']['output']>>;
  /** The scopes whose cluster lists narrowed `allowedClusters`. */
  allowedClustersSources: Array<Scope>;
  approvalRequired: EffectiveBooleanSetting;
  /** The scopes considered, most specific first: user, group, organisation, global. */
  chain: Array<Scope>;
  defaultPriority: EffectiveIntSetting;
  idleTimeoutSeconds: EffectiveIntSetting;
  /** Every aggregate limit on the chain, most specific scope first, with what the scope that set it uses now and what is left of it. */
  limits: Array<EffectiveLimit>;
  maxSessionSeconds: EffectiveIntSetting;
  preemptible: EffectiveBooleanSetting;
};

/** An environment variable of a session or job. */
export type EnvVar = {
  __typename?: 'EnvVar';
  name: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

export type EnvVarInput = {
  name: Scalars['String']['input'];
  value: Scalars['String']['input'];
};

/** Why a mutation was refused; mirrors the domain's error codes. */
export type ErrorCode =
  | 'ACCOUNT_DISABLED'
  | 'APPROVAL_NOT_PENDING'
  | 'BUDGET_EXCEEDED'
  | 'CLUSTER_NOT_ALLOWED'
  | 'CONFLICT'
  | 'CUDA_TOO_OLD'
  | 'DEFAULT_GROUP_PROTECTED'
  | 'DUPLICATE'
  | 'ENV_RESERVED'
  | 'EXTENSION_OVER_POLICY'
  | 'GPU_REQUEST_INVALID'
  | 'GROUP_NOT_EMPTY'
  | 'GUEST_GPU_REFUSED'
  | 'HOLD_CLOSED'
  | 'IDEMPOTENCY_KEY_REUSED'
  | 'ILLEGAL_TRANSITION'
  | 'INSUFFICIENT_CREDITS'
  | 'INVALID_CREDENTIALS'
  | 'INVALID_CUDA_VERSION'
  | 'INVALID_EXPIRY'
  | 'INVALID_IMAGE_REFERENCE'
  | 'INVALID_TRANSFER'
  | 'INVALID_VALUE'
  | 'INVENTORY_INVALID'
  | 'IN_USE'
  | 'JOB_FRACTION_REFUSED'
  | 'JOB_MIG_REFUSED'
  | 'JOB_TIMESLICE_REFUSED'
  | 'LAST_SUPER_ADMIN'
  | 'MIG_PROFILE_INVALID'
  | 'MOUNT_NOT_PERMITTED'
  | 'MOUNT_PATH_INVALID'
  | 'NOT_A_MEMBER'
  | 'NOT_A_PERSONAL_WALLET'
  | 'NOT_FOUND'
  | 'ORGANIZATION_NOT_EMPTY'
  | 'PERMISSION_DENIED'
  | 'PLACEMENT_CONFLICT'
  | 'PLACEMENT_POLICY_UNKNOWN'
  | 'POLICY_LIMIT_EXCEEDED'
  | 'PRESET_EXCEEDS_CARD'
  | 'QUEUE_ENTRY_DUPLICATE'
  | 'QUEUE_ENTRY_UNKNOWN'
  | 'READ_ONLY_TOKEN'
  | 'REQUIRED'
  | 'SHARING_CHANGE_INVALID'
  | 'SHARING_CHANGE_SHARED_CAPACITY_SHORT'
  | 'STORAGE_CLASS_ACCESS_MODE'
  | 'STORAGE_CLASS_UNKNOWN'
  | 'STORAGE_QUOTA_EXCEEDED'
  | 'TIER_ON_CPU_ONLY_PRESET'
  | 'TOKEN_EXPIRED'
  | 'UNAUTHENTICATED'
  | 'USER_HAS_ACTIVE_WORK'
  | 'VOLUME_GONE'
  | 'VOLUME_IN_USE'
  | 'WALLET_NOT_OWN'
  | 'WEAK_PASSWORD'
  | 'WORKLOAD_ALREADY_PLACED'
  | 'WORKLOAD_NOT_PLACED';

/** One parameter of a refusal: a number or a name, as text. */
export type ErrorParam = {
  __typename?: 'ErrorParam';
  name: Scalars['String']['output'];
  value: Scalars['String']['output'];
};

/** How long a session may live: 1 h, 4 h, 1 d, 7 d, 30 d or no limit. */
export type Expiry =
  | 'D1'
  | 'D7'
  | 'D30'
  | 'H1'
  | 'H4'
  | 'NONE';

/** What a placement takes: a HAMi fraction, a MIG instance, a time-slice or whole cards. */
export type GpuKind =
  | 'EXCLUSIVE'
  | 'HAMI'
  | 'MIG'
  | 'SHARED';

/** What a preset gives on one offering's card. */
export type GpuLimits = {
  __typename?: 'GpuLimits';
  cards: Scalars['Int']['output'];
  cores: Scalars['Int']['output'];
  exclusive: Scalars['Boolean']['output'];
  hourlyCost: Credits;
  /** Billing ratio as an exact fraction, e.g. "1/4". */
  ratio: Scalars['String']['output'];
  /** The ratio as a number, for display only. */
  ratioValue: Scalars['Float']['output'];
  vramMib: Scalars['Int']['output'];
};

/** XL=1/2, L=1/4, M=1/8, S=1/16 of a card; EXCLUSIVE=N cards; CUSTOM; NONE=CPU only. */
export type GpuTier =
  | 'CUSTOM'
  | 'EXCLUSIVE'
  | 'L'
  | 'M'
  | 'NONE'
  | 'S'
  | 'XL';

export type Group = Node & {
  __typename?: 'Group';
  createdAt: Scalars['DateTime']['output'];
  description: Scalars['String']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  isDefault: Scalars['Boolean']['output'];
  members: MembershipConnection;
  name: Scalars['String']['output'];
  organization: Organization;
  /** Whether the viewer administers this group. */
  viewerIsAdmin: Scalars['Boolean']['output'];
};


export type GroupMembersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};

export type GroupConnection = {
  __typename?: 'GroupConnection';
  edges: Array<GroupEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Group>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type GroupCreateInput = {
  description?: Scalars['String']['input'];
  name: Scalars['String']['input'];
  organizationId: Scalars['ID']['input'];
};

export type GroupEdge = {
  __typename?: 'GroupEdge';
  cursor: Scalars['String']['output'];
  node: Group;
};

export type GroupPayload = {
  __typename?: 'GroupPayload';
  errors: Array<UserError>;
  group?: Maybe<Group>;
};

export type GroupUpdateInput = {
  description?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
};

export type HoldStatus =
  | 'OPEN'
  | 'RELEASED'
  | 'SETTLED';

/** Names one object by its global ID. */
export type IdInput = {
  id: Scalars['ID']['input'];
};

export type IdleCreditsDimension =
  | 'GROUP'
  | 'ORGANIZATION'
  | 'USER';

/** Credits spent on GPU sessions while their GPU util stayed below a threshold, in the scopes you administer (nothing for a member). */
export type IdleCreditsReport = {
  __typename?: 'IdleCreditsReport';
  belowPercent: Scalars['Float']['output'];
  by: IdleCreditsDimension;
  charged: Credits;
  idleCharged: Credits;
  /** Most idle credits first. */
  rows: Array<IdleCreditsRow>;
  since: Scalars['DateTime']['output'];
  until: Scalars['DateTime']['output'];
};

/** One organisation, group or user of an idle-credits report. */
export type IdleCreditsRow = {
  __typename?: 'IdleCreditsRow';
  /** What the ledger charged these sessions in the period. */
  charged: Credits;
  id: Scalars['ID']['output'];
  /** The part of it paid while idle: each session's charges × its idle minutes / its minutes. */
  idleCharged: Credits;
  /** Minutes whose mean GPU util was below the threshold. */
  idleMinutes: Scalars['Int']['output'];
  /** Their recorded minutes. */
  minutes: Scalars['Int']['output'];
  /** Organisation or group name, or user name. */
  name?: Maybe<Scalars['String']['output']>;
  /** Minutes without samples (never counted idle). */
  noDataMinutes: Scalars['Int']['output'];
  /** GPU sessions with history in the period. */
  sessions: Scalars['Int']['output'];
};

/** What idle reclaim gave back in a period, in the scopes you administer. */
export type IdleReclaimReport = {
  __typename?: 'IdleReclaimReport';
  /** GPU-hours (card equivalents × hours) those sessions did not hold from their pause until they were resumed, their expiry, or the period's end. */
  gpuHoursReturned: Scalars['Float']['output'];
  /** Sessions idle reclaim paused in the period. */
  pausedSessions: Scalars['Int']['output'];
  since: Scalars['DateTime']['output'];
  until: Scalars['DateTime']['output'];
};

/** A container image with the CUDA version it ships. */
export type Image = Node & {
  __typename?: 'Image';
  createdAt: Scalars['DateTime']['output'];
  /** Whether this image's CUDA meets an offering's minimum; with the reason when not. */
  cudaCompatibility: CudaCompatibility;
  cudaVersion?: Maybe<Scalars['String']['output']>;
  description: Scalars['String']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  organization?: Maybe<Organization>;
  reference: Scalars['String']['output'];
  registry?: Maybe<Registry>;
  scope: ImageScope;
};


/** A container image with the CUDA version it ships. */
export type ImageCudaCompatibilityArgs = {
  offeringId: Scalars['ID']['input'];
};

export type ImageConnection = {
  __typename?: 'ImageConnection';
  edges: Array<ImageEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Image>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type ImageCreateInput = {
  /** Null for CPU-only images. */
  cudaVersion?: InputMaybe<Scalars['String']['input']>;
  description?: Scalars['String']['input'];
  name: Scalars['String']['input'];
  organizationId?: InputMaybe<Scalars['ID']['input']>;
  reference: Scalars['String']['input'];
  registryId?: InputMaybe<Scalars['ID']['input']>;
  scope?: ImageScope;
};

export type ImageEdge = {
  __typename?: 'ImageEdge';
  cursor: Scalars['String']['output'];
  node: Image;
};

export type ImagePayload = {
  __typename?: 'ImagePayload';
  errors: Array<UserError>;
  image?: Maybe<Image>;
};

export type ImageScope =
  | 'GLOBAL'
  | 'ORGANIZATION'
  | 'PERSONAL';

export type ImageUpdateInput = {
  cudaVersion?: InputMaybe<Scalars['String']['input']>;
  description?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
  reference?: InputMaybe<Scalars['String']['input']>;
};

/** A suggested CPU/memory/GPU bundle computed from free resources. */
export type InstanceBundle = {
  __typename?: 'InstanceBundle';
  cpuMillicores: Scalars['Int']['output'];
  gpus: Scalars['Int']['output'];
  memoryMib: Scalars['Int']['output'];
  model?: Maybe<Scalars['String']['output']>;
  name: Scalars['String']['output'];
  /** Nodes that can host it right now. */
  nodes: Scalars['Int']['output'];
};

/** One movement of credits between two accounts. */
export type LedgerTransfer = {
  __typename?: 'LedgerTransfer';
  /** The User who moved it; null for system operations. */
  actorId?: Maybe<Scalars['ID']['output']>;
  amount: Credits;
  attributedGroupId?: Maybe<Scalars['ID']['output']>;
  attributedOrganizationId?: Maybe<Scalars['ID']['output']>;
  /** For charges: whose spend it counts as. */
  attributedUserId?: Maybe<Scalars['ID']['output']>;
  createdAt: Scalars['DateTime']['output'];
  destination: AccountRef;
  /** The CreditHold a charge was taken against. */
  holdId?: Maybe<Scalars['ID']['output']>;
  /** The transfer's UUID. */
  id: Scalars['ID']['output'];
  /** The key the client sent (for an admin's movement), or the system's key (refills, metering). */
  idempotencyKey: Scalars['String']['output'];
  kind: TransferKind;
  memo: Scalars['String']['output'];
  /** Position in the ledger (newest is highest); null in mutation payloads (read it from ledgerHistory). */
  seq?: Maybe<Scalars['BigInt']['output']>;
  source: AccountRef;
};

/** Ledger history, newest first, paged by a keyset cursor on the ledger's sequence (stable while new transfers are posted). Forward paging only. */
export type LedgerTransferConnection = {
  __typename?: 'LedgerTransferConnection';
  edges: Array<LedgerTransferEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<LedgerTransfer>;
  pageInfo: PageInfo;
  /** How many transfers all pages hold, with the same filters. */
  totalCount: Scalars['Int']['output'];
};

export type LedgerTransferEdge = {
  __typename?: 'LedgerTransferEdge';
  cursor: Scalars['String']['output'];
  node: LedgerTransfer;
};

export type LoginInput = {
  password: Scalars['String']['input'];
  username: Scalars['String']['input'];
};

export type LogoutPayload = {
  __typename?: 'LogoutPayload';
  errors: Array<UserError>;
  ok: Scalars['Boolean']['output'];
};

export type Membership = {
  __typename?: 'Membership';
  group: Group;
  role: Role;
  user: User;
};

export type MembershipConnection = {
  __typename?: 'MembershipConnection';
  edges: Array<MembershipEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Membership>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type MembershipEdge = {
  __typename?: 'MembershipEdge';
  cursor: Scalars['String']['output'];
  node: Membership;
};

export type MembershipPayload = {
  __typename?: 'MembershipPayload';
  errors: Array<UserError>;
  membership?: Maybe<Membership>;
};

export type MembershipRemoveInput = {
  groupId: Scalars['ID']['input'];
  userId: Scalars['ID']['input'];
};

export type MembershipSetInput = {
  groupId: Scalars['ID']['input'];
  role: Role;
  userId: Scalars['ID']['input'];
};

export type MigInstance = {
  __typename?: 'MigInstance';
  id: Scalars['String']['output'];
  profile: Scalars['String']['output'];
  /** Session id using it, when visible to you. */
  tenant?: Maybe<Scalars['String']['output']>;
  /** The name of the session using it, when visible to you. */
  tenantName?: Maybe<Scalars['String']['output']>;
  vramMib: Scalars['Int']['output'];
};

/** A per-model cap in cards (ratio sum), e.g. A100 × 4. */
export type ModelCap = {
  __typename?: 'ModelCap';
  /** Exact: "4", "2.5" or "1/3". */
  cards: Scalars['String']['output'];
  model: Scalars['String']['output'];
};

/** A per-model cap, e.g. {model: "A100", cards: "4"}. */
export type ModelCapInput = {
  /** Cards as a ratio sum: "4", "2.5" or "1/3". */
  cards: Scalars['String']['input'];
  model: Scalars['String']['input'];
};

export type ModelCapacity = {
  __typename?: 'ModelCapacity';
  logical: Counts;
  model: Scalars['String']['output'];
  physical: Counts;
};

export type MountInput = {
  mode?: MountMode;
  mountPath: Scalars['String']['input'];
  volumeId: Scalars['ID']['input'];
};

/** ro = read-only, rw = read-write. */
export type MountMode =
  | 'READ_ONLY'
  | 'READ_WRITE';

export type Mutation = {
  __typename?: 'Mutation';
  /** Choose the group new work is done in (its quotas and budget apply). */
  activeGroupSet: UserPayload;
  /** Delete a budget (same admins as budgetSet). */
  budgetDelete: DeletePayload;
  /** Create or replace the budget of a scope (organisation: its org_admin; group: an admin of the group; user: an admin of one of the user's groups) for one period length. */
  budgetSet: BudgetPayload;
  /** Deregister a Kubernetes cluster with nothing placed on it (super_admin). */
  clusterDeregister: ClusterDeregisterPayload;
  /** Change a cluster's placement policy (super_admin). */
  clusterPlacementPolicyUpdate: ClusterPayload;
  /** Register a Kubernetes cluster (super_admin). */
  clusterRegister: ClusterPayload;
  /** Where a cluster's live usage comes from besides its node agents: its Prometheus (super_admin). */
  clusterUsageSourceSet: ClusterPayload;
  /** Move credits one level down (system → organisation by super_admin, organisation → group by its org_admin, group → member by its group_admin). Refused with INSUFFICIENT_CREDITS when the source's available balance is short; nothing moves then. */
  creditsAllocate: CreditsTransferPayload;
  /** Give every member of a group the same amount from the group, all or none. */
  creditsAllocateToGroupMembers: CreditsBulkTransferPayload;
  /** Take credits back one level up, by an admin of the receiving (parent) account. */
  creditsTakeBack: CreditsTransferPayload;
  groupCreate: GroupPayload;
  groupDelete: DeletePayload;
  groupUpdate: GroupPayload;
  /** Register an image: global (super_admin), for an organisation (its admins), or your own. */
  imageCreate: ImagePayload;
  imageDelete: DeletePayload;
  imageUpdate: ImagePayload;
  /** Sign in with a local account; sets an httpOnly session cookie. */
  login: UserPayload;
  /** End the browser session and clear its cookie. */
  logout: LogoutPayload;
  membershipRemove: MembershipPayload;
  membershipSet: MembershipPayload;
  /** Cordon a node (nothing new is placed there; what runs stays) or uncordon it (the queue is drained at once), on the cluster and in the capacity state (super_admin). */
  nodeCordonSet: NodeCordonPayload;
  /** Drain a node: cordon it and pause every session placed there; each is resumed on another node (or queued until there is room) once its pod is gone. The node stays cordoned (super_admin). */
  nodeDrain: NodeDrainPayload;
  /** Change a node's sharing mode or time-slice replicas: pre-check, cordon, drain, relabel, wait for the new resource, remove stale capacity, uncordon (super_admin). Returns the running operation. */
  nodeSharingModeChange: NodeOperationPayload;
  notificationsMarkRead: NotificationsMarkReadPayload;
  offeringCreate: OfferingPayload;
  offeringDelete: DeletePayload;
  offeringUpdate: OfferingPayload;
  organizationCreate: OrganizationPayload;
  organizationDelete: DeletePayload;
  organizationUpdate: OrganizationPayload;
  /** Create a personal access token; its secret is returned once. */
  personalAccessTokenCreate: PersonalAccessTokenCreatePayload;
  personalAccessTokenRevoke: PersonalAccessTokenPayload;
  /** Remove the policy of one scope (its settings then inherit from wider scopes). */
  policyDelete: DeletePayload;
  /** Create or replace the resource policy of one scope. */
  policySet: PolicyPayload;
  presetCreate: PresetPayload;
  presetDelete: DeletePayload;
  presetUpdate: PresetPayload;
  /** Schedule credits to flow one level down each day, week or month. */
  refillScheduleCreate: RefillSchedulePayload;
  /** Pause or resume a refill schedule. */
  refillScheduleSetActive: RefillSchedulePayload;
  registryCreate: RegistryPayload;
  registryDelete: DeletePayload;
  registryUpdate: RegistryPayload;
  /** Approve a session waiting for approval, optionally assigning the GPU kind. */
  sessionApprove: SessionPayload;
  /** Ask for a session: runs the eight admission steps; a refusal names the step and the numbers. */
  sessionCreate: SessionPayload;
  /** Choose a new expiry from now, within the policy's maximum duration. */
  sessionExtend: SessionPayload;
  /** Pause: frees the GPU at once and stops billing; settings and volumes stay. */
  sessionPause: SessionPayload;
  /** Reject a session waiting for approval, with a reason the requester sees. */
  sessionReject: SessionPayload;
  /** Resume a paused session: places it again (or queues it). */
  sessionResume: SessionPayload;
  /** Stop: releases everything and settles the credit hold; volumes are kept. */
  sessionStop: SessionPayload;
  /** Add or change a storage class volumes may use (super_admin). */
  storageClassSet: StorageClassPayload;
  /** Save a session recipe for a group. */
  templateCreate: TemplatePayload;
  templateDelete: DeletePayload;
  userCreate: UserPayload;
  /** Delete a user: their name, e-mail, display name, password, sign-on subject, roles, memberships, login sessions and tokens are removed (tokens revoked); the audit log, the ledger and past sessions keep pointing at the same id, now named deleted-…. Refused with USER_HAS_ACTIVE_WORK while they have sessions not ended or personal volumes (an admin of their organisation, or a super_admin; never yourself). */
  userDelete: UserPayload;
  userOrgAdminSet: UserPayload;
  userPasswordSet: UserPayload;
  userSuperAdminSet: UserPayload;
  userUpdate: UserPayload;
  /** Create a personal volume, or a group-shared one for a group you administer. */
  volumeCreate: VolumePayload;
  /** Delete a volume no session mounts (its claim on every cluster with it). */
  volumeDelete: DeletePayload;
};


export type MutationActiveGroupSetArgs = {
  input: ActiveGroupSetInput;
};


export type MutationBudgetDeleteArgs = {
  input: IdInput;
};


export type MutationBudgetSetArgs = {
  input: BudgetSetInput;
};


export type MutationClusterDeregisterArgs = {
  input: ClusterDeregisterInput;
};


export type MutationClusterPlacementPolicyUpdateArgs = {
  input: ClusterPlacementPolicyUpdateInput;
};


export type MutationClusterRegisterArgs = {
  input: ClusterRegisterInput;
};


export type MutationClusterUsageSourceSetArgs = {
  input: ClusterUsageSourceSetInput;
};


export type MutationCreditsAllocateArgs = {
  input: CreditsAllocateInput;
};


export type MutationCreditsAllocateToGroupMembersArgs = {
  input: CreditsAllocateToGroupMembersInput;
};


export type MutationCreditsTakeBackArgs = {
  input: CreditsTakeBackInput;
};


export type MutationGroupCreateArgs = {
  input: GroupCreateInput;
};


export type MutationGroupDeleteArgs = {
  input: IdInput;
};


export type MutationGroupUpdateArgs = {
  input: GroupUpdateInput;
};


export type MutationImageCreateArgs = {
  input: ImageCreateInput;
};


export type MutationImageDeleteArgs = {
  input: IdInput;
};


export type MutationImageUpdateArgs = {
  input: ImageUpdateInput;
};


export type MutationLoginArgs = {
  input: LoginInput;
};


export type MutationMembershipRemoveArgs = {
  input: MembershipRemoveInput;
};


export type MutationMembershipSetArgs = {
  input: MembershipSetInput;
};


export type MutationNodeCordonSetArgs = {
  input: NodeCordonSetInput;
};


export type MutationNodeDrainArgs = {
  input: NodeDrainInput;
};


export type MutationNodeSharingModeChangeArgs = {
  input: NodeSharingModeChangeInput;
};


export type MutationNotificationsMarkReadArgs = {
  input: NotificationsMarkReadInput;
};


export type MutationOfferingCreateArgs = {
  input: OfferingCreateInput;
};


export type MutationOfferingDeleteArgs = {
  input: IdInput;
};


export type MutationOfferingUpdateArgs = {
  input: OfferingUpdateInput;
};


export type MutationOrganizationCreateArgs = {
  input: OrganizationCreateInput;
};


export type MutationOrganizationDeleteArgs = {
  input: IdInput;
};


export type MutationOrganizationUpdateArgs = {
  input: OrganizationUpdateInput;
};


export type MutationPersonalAccessTokenCreateArgs = {
  input: PersonalAccessTokenCreateInput;
};


export type MutationPersonalAccessTokenRevokeArgs = {
  input: IdInput;
};


export type MutationPolicyDeleteArgs = {
  input: PolicyDeleteInput;
};


export type MutationPolicySetArgs = {
  input: PolicySetInput;
};


export type MutationPresetCreateArgs = {
  input: PresetCreateInput;
};


export type MutationPresetDeleteArgs = {
  input: IdInput;
};


export type MutationPresetUpdateArgs = {
  input: PresetUpdateInput;
};


export type MutationRefillScheduleCreateArgs = {
  input: RefillScheduleCreateInput;
};


export type MutationRefillScheduleSetActiveArgs = {
  input: RefillScheduleSetActiveInput;
};


export type MutationRegistryCreateArgs = {
  input: RegistryCreateInput;
};


export type MutationRegistryDeleteArgs = {
  input: IdInput;
};


export type MutationRegistryUpdateArgs = {
  input: RegistryUpdateInput;
};


export type MutationSessionApproveArgs = {
  input: SessionApproveInput;
};


export type MutationSessionCreateArgs = {
  input: SessionCreateInput;
};


export type MutationSessionExtendArgs = {
  input: SessionExtendInput;
};


export type MutationSessionPauseArgs = {
  input: IdInput;
};


export type MutationSessionRejectArgs = {
  input: SessionRejectInput;
};


export type MutationSessionResumeArgs = {
  input: IdInput;
};


export type MutationSessionStopArgs = {
  input: IdInput;
};


export type MutationStorageClassSetArgs = {
  input: StorageClassSetInput;
};


export type MutationTemplateCreateArgs = {
  input: TemplateCreateInput;
};


export type MutationTemplateDeleteArgs = {
  input: IdInput;
};


export type MutationUserCreateArgs = {
  input: UserCreateInput;
};


export type MutationUserDeleteArgs = {
  input: IdInput;
};


export type MutationUserOrgAdminSetArgs = {
  input: UserOrgAdminSetInput;
};


export type MutationUserPasswordSetArgs = {
  input: UserPasswordSetInput;
};


export type MutationUserSuperAdminSetArgs = {
  input: UserSuperAdminSetInput;
};


export type MutationUserUpdateArgs = {
  input: UserUpdateInput;
};


export type MutationVolumeCreateArgs = {
  input: VolumeCreateInput;
};


export type MutationVolumeDeleteArgs = {
  input: IdInput;
};

/** A refusal of a mutation, naming the field and the reason. */
export type MutationError = UserError & {
  __typename?: 'MutationError';
  code: ErrorCode;
  /** The input field it concerns, when it concerns one. */
  field?: Maybe<Scalars['String']['output']>;
  /** In English, for API clients; consoles say it from `code` and `params`. */
  message: Scalars['String']['output'];
  /** The refusal's numbers and names by name (e.g. POLICY_LIMIT_EXCEEDED: limit, used, requested; INSUFFICIENT_CREDITS: available, requested; BUDGET_EXCEEDED: limit, spent). */
  params: Array<ErrorParam>;
};

/** An object with a Globally Unique ID */
export type Node = {
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
};

export type NodeCordonPayload = {
  __typename?: 'NodeCordonPayload';
  cordoned?: Maybe<Scalars['Boolean']['output']>;
  errors: Array<UserError>;
  /** The node's id (`<cluster>/<name>`). */
  nodeId?: Maybe<Scalars['String']['output']>;
};

export type NodeCordonSetInput = {
  clusterId: Scalars['String']['input'];
  /** true: take no new sessions; false: take them again. */
  cordoned: Scalars['Boolean']['input'];
  /** `<cluster>/<node name>` or the node name alone. */
  nodeId: Scalars['String']['input'];
};

export type NodeDrainInput = {
  clusterId: Scalars['String']['input'];
  /** `<cluster>/<node name>` or the node name alone. */
  nodeId: Scalars['String']['input'];
};

export type NodeDrainPayload = {
  __typename?: 'NodeDrainPayload';
  /** Sessions asked to pause; each is resumed on another node (or queued) once its pod is gone. */
  drainedSessions: Array<Scalars['ID']['output']>;
  errors: Array<UserError>;
  /** The node's id (`<cluster>/<name>`). */
  nodeId?: Maybe<Scalars['String']['output']>;
  /** Sessions on the node that could not be paused (batch jobs run to their end). */
  skippedSessions: Array<Scalars['ID']['output']>;
};

/** A guarded node operation (sharing-mode or replica change) and its progress. */
export type NodeOperation = {
  __typename?: 'NodeOperation';
  clusterId: Scalars['String']['output'];
  createdAt: Scalars['DateTime']['output'];
  currentStep?: Maybe<NodeOperationStep>;
  drainedSessions: Array<Scalars['String']['output']>;
  error?: Maybe<Scalars['String']['output']>;
  finishedAt?: Maybe<Scalars['DateTime']['output']>;
  id: Scalars['ID']['output'];
  mode: SharingMode;
  nodeId: Scalars['String']['output'];
  removedResources: Array<Scalars['String']['output']>;
  replicas?: Maybe<Scalars['Int']['output']>;
  state: NodeOperationState;
  steps: Array<NodeOperationProgress>;
};

export type NodeOperationPayload = {
  __typename?: 'NodeOperationPayload';
  errors: Array<UserError>;
  operation?: Maybe<NodeOperation>;
};

export type NodeOperationProgress = {
  __typename?: 'NodeOperationProgress';
  at: Scalars['DateTime']['output'];
  message: Scalars['String']['output'];
  step: NodeOperationStep;
};

export type NodeOperationState =
  | 'FAILED'
  | 'RUNNING'
  | 'SUCCEEDED';

export type NodeOperationStep =
  | 'CORDON'
  | 'DRAIN'
  | 'PRECHECK'
  | 'RELABEL'
  | 'REMOVE_STALE'
  | 'ROLLBACK'
  | 'UNCORDON'
  | 'WAIT_FOR_RESOURCE';

export type NodeSharingModeChangeInput = {
  clusterId: Scalars['String']['input'];
  mode: SharingMode;
  /** `<cluster>/<node name>` or the node name alone. */
  nodeId: Scalars['String']['input'];
  /** Time slices per card (time slicing only). */
  replicas?: InputMaybe<Scalars['Int']['input']>;
};

/** Budget warnings, expiry warnings, auto-pause, preemption and other news for you. */
export type Notification = {
  __typename?: 'Notification';
  createdAt: Scalars['DateTime']['output'];
  id: Scalars['ID']['output'];
  kind: Scalars['String']['output'];
  message: Scalars['String']['output'];
  readAt?: Maybe<Scalars['DateTime']['output']>;
  sessionId?: Maybe<Scalars['ID']['output']>;
};

export type NotificationConnection = {
  __typename?: 'NotificationConnection';
  edges: Array<NotificationEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Notification>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type NotificationEdge = {
  __typename?: 'NotificationEdge';
  cursor: Scalars['String']['output'];
  node: Notification;
};

export type NotificationsMarkReadInput = {
  ids: Array<Scalars['ID']['input']>;
};

export type NotificationsMarkReadPayload = {
  __typename?: 'NotificationsMarkReadPayload';
  errors: Array<UserError>;
  marked: Scalars['Int']['output'];
};

/** One accelerator model as a whole card, or a class of cards (cardClass): any enabled model with at least vramMib of memory (among cardClass.models when it names some), billed at the rate of the card a session is placed on. */
export type Offering = Node & {
  __typename?: 'Offering';
  /** Null for one model; for a class of cards, what it admits. */
  cardClass?: Maybe<CardClass>;
  cores: Scalars['Int']['output'];
  createdAt: Scalars['DateTime']['output'];
  description: Scalars['String']['output'];
  enabled: Scalars['Boolean']['output'];
  /** Credits per hour for one whole card (0 for a class of cards: see hourlyRateRange). */
  hourlyRate: Credits;
  /** Credits per hour for one whole card: the cheapest and the dearest card of a class (both the offering's rate for one model); null for a class with no enabled card. */
  hourlyRateRange?: Maybe<CreditsRange>;
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  /** For a class of cards, the enabled offerings it may be placed on; empty for one model. */
  members: Array<Offering>;
  minCuda: Scalars['String']['output'];
  name: Scalars['String']['output'];
  resourceName: Scalars['String']['output'];
  /** Whether HAMi / MIG / time-slicing can split it (NVIDIA only). */
  shareable: Scalars['Boolean']['output'];
  vendor: Scalars['String']['output'];
  vramMib: Scalars['Int']['output'];
};

export type OfferingConnection = {
  __typename?: 'OfferingConnection';
  edges: Array<OfferingEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Offering>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type OfferingCreateInput = {
  /** A class of cards instead of one model (hourlyRateMicro must then be 0: sessions are billed at the rate of the card they are placed on). */
  cardClass?: InputMaybe<CardClassInput>;
  cores?: Scalars['Int']['input'];
  description?: Scalars['String']['input'];
  enabled?: Scalars['Boolean']['input'];
  /** Credits per hour for a whole card, in micro-credits. */
  hourlyRateMicro: Scalars['BigInt']['input'];
  /** Minimum CUDA version, e.g. "12.2". */
  minCuda: Scalars['String']['input'];
  name: Scalars['String']['input'];
  resourceName?: Scalars['String']['input'];
  vendor: Scalars['String']['input'];
  /** A card's memory; for a class of cards, the least a card has. */
  vramMib: Scalars['Int']['input'];
};

export type OfferingEdge = {
  __typename?: 'OfferingEdge';
  cursor: Scalars['String']['output'];
  node: Offering;
};

export type OfferingPayload = {
  __typename?: 'OfferingPayload';
  errors: Array<UserError>;
  offering?: Maybe<Offering>;
};

export type OfferingUpdateInput = {
  /** For a class of cards, the models it may use from now on (empty: any model with at least its vramMib); refused for an offering of one model. */
  cardClass?: InputMaybe<CardClassInput>;
  description?: InputMaybe<Scalars['String']['input']>;
  enabled?: InputMaybe<Scalars['Boolean']['input']>;
  hourlyRateMicro?: InputMaybe<Scalars['BigInt']['input']>;
  id: Scalars['ID']['input'];
  minCuda?: InputMaybe<Scalars['String']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
};

export type Organization = Node & {
  __typename?: 'Organization';
  createdAt: Scalars['DateTime']['output'];
  description: Scalars['String']['output'];
  groups: GroupConnection;
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  slug: Scalars['String']['output'];
  users: UserConnection;
  /** Whether the viewer administers this organisation. */
  viewerIsAdmin: Scalars['Boolean']['output'];
};


export type OrganizationGroupsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type OrganizationUsersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  search?: InputMaybe<Scalars['String']['input']>;
};

export type OrganizationConnection = {
  __typename?: 'OrganizationConnection';
  edges: Array<OrganizationEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Organization>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type OrganizationCreateInput = {
  description?: Scalars['String']['input'];
  name: Scalars['String']['input'];
  slug?: InputMaybe<Scalars['String']['input']>;
};

export type OrganizationEdge = {
  __typename?: 'OrganizationEdge';
  cursor: Scalars['String']['output'];
  node: Organization;
};

export type OrganizationPayload = {
  __typename?: 'OrganizationPayload';
  errors: Array<UserError>;
  organization?: Maybe<Organization>;
};

export type OrganizationUpdateInput = {
  description?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
};

export type PageInfo = {
  __typename?: 'PageInfo';
  endCursor?: Maybe<Scalars['String']['output']>;
  hasNextPage: Scalars['Boolean']['output'];
  hasPreviousPage: Scalars['Boolean']['output'];
  startCursor?: Maybe<Scalars['String']['output']>;
};

export type PersonalAccessToken = Node & {
  __typename?: 'PersonalAccessToken';
  active: Scalars['Boolean']['output'];
  createdAt: Scalars['DateTime']['output'];
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  lastUsedAt?: Maybe<Scalars['DateTime']['output']>;
  name: Scalars['String']['output'];
  revokedAt?: Maybe<Scalars['DateTime']['output']>;
  scope: TokenScope;
  /** The first characters of the secret, to recognise it. */
  tokenPrefix: Scalars['String']['output'];
};

export type PersonalAccessTokenConnection = {
  __typename?: 'PersonalAccessTokenConnection';
  edges: Array<PersonalAccessTokenEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<PersonalAccessToken>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type PersonalAccessTokenCreateInput = {
  /** 1–366 days; null for no expiry. */
  expiresInDays?: InputMaybe<Scalars['Int']['input']>;
  name: Scalars['String']['input'];
  scope?: TokenScope;
};

export type PersonalAccessTokenCreatePayload = {
  __typename?: 'PersonalAccessTokenCreatePayload';
  errors: Array<UserError>;
  /** Shown once; store it now. */
  secret?: Maybe<Scalars['String']['output']>;
  token?: Maybe<PersonalAccessToken>;
};

export type PersonalAccessTokenEdge = {
  __typename?: 'PersonalAccessTokenEdge';
  cursor: Scalars['String']['output'];
  node: PersonalAccessToken;
};

export type PersonalAccessTokenPayload = {
  __typename?: 'PersonalAccessTokenPayload';
  errors: Array<UserError>;
  token?: Maybe<PersonalAccessToken>;
};

/** How a cluster's placement chooses among cards that fit. */
export type PlacementPolicy =
  | 'BEST_FIT'
  | 'FIRST_FIT'
  | 'FRAGMENTATION_AWARE'
  | 'GPU_PACKING';

export type PolicyDeleteInput = {
  scope: ScopeInput;
};

export type PolicyPayload = {
  __typename?: 'PolicyPayload';
  errors: Array<UserError>;
  policy?: Maybe<ResourcePolicy>;
};

/** Create or replace the policy of one scope: every field, null = not set at this scope (GLOBAL: super_admin; organisation: its org_admin; group: its organisation's org_admin; user: an admin of one of the user's groups). */
export type PolicySetInput = {
  /** null: any cluster. */
  allowedClusters?: InputMaybe<Array<Scalars['String']['input']>>;
  approvalRequired?: InputMaybe<Scalars['Boolean']['input']>;
  defaultPriority?: InputMaybe<Scalars['Int']['input']>;
  idleTimeoutSeconds?: InputMaybe<Scalars['Int']['input']>;
  maxConcurrentSessions?: InputMaybe<Scalars['Int']['input']>;
  maxCpuMillicores?: InputMaybe<Scalars['Int']['input']>;
  /** Sum of GPU ratios: "4", "2.5", "1/3". */
  maxGpus?: InputMaybe<Scalars['String']['input']>;
  maxMemoryMib?: InputMaybe<Scalars['Int']['input']>;
  maxSessionSeconds?: InputMaybe<Scalars['Int']['input']>;
  maxVramMib?: InputMaybe<Scalars['Int']['input']>;
  modelCaps?: InputMaybe<Array<ModelCapInput>>;
  preemptible?: InputMaybe<Scalars['Boolean']['input']>;
  scope: ScopeInput;
  storageQuotaMib?: InputMaybe<Scalars['Int']['input']>;
};

/** CPU, memory, disk, shm and a GPU tier. */
export type Preset = Node & {
  __typename?: 'Preset';
  cpuMillicores: Scalars['Int']['output'];
  cpuOnly: Scalars['Boolean']['output'];
  createdAt: Scalars['DateTime']['output'];
  customCores?: Maybe<Scalars['Int']['output']>;
  customVramMib?: Maybe<Scalars['Int']['output']>;
  description: Scalars['String']['output'];
  diskGib: Scalars['Int']['output'];
  gpuCount: Scalars['Int']['output'];
  /** VRAM/core limits, card count, ratio and hourly cost on an offering's card (for a class of cards, on its dearest card); null for CPU-only presets or when it does not fit the card. */
  gpuLimits?: Maybe<GpuLimits>;
  /** Shown before admission: what the preset costs per hour on the cheapest and on the dearest card the offering may place it on (equal for one model); null for CPU-only presets or when it fits no card. */
  hourlyCostRange?: Maybe<CreditsRange>;
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  memoryMib: Scalars['Int']['output'];
  name: Scalars['String']['output'];
  shmMib: Scalars['Int']['output'];
  tier: GpuTier;
};


/** CPU, memory, disk, shm and a GPU tier. */
export type PresetGpuLimitsArgs = {
  offeringId: Scalars['ID']['input'];
};


/** CPU, memory, disk, shm and a GPU tier. */
export type PresetHourlyCostRangeArgs = {
  offeringId: Scalars['ID']['input'];
};

export type PresetConnection = {
  __typename?: 'PresetConnection';
  edges: Array<PresetEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Preset>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type PresetCreateInput = {
  cpuMillicores: Scalars['Int']['input'];
  /** Percent of a card's cores, for CUSTOM presets. */
  customCores?: InputMaybe<Scalars['Int']['input']>;
  /** For CUSTOM presets. */
  customVramMib?: InputMaybe<Scalars['Int']['input']>;
  description?: Scalars['String']['input'];
  diskGib?: Scalars['Int']['input'];
  /** Whole cards, for EXCLUSIVE presets. */
  gpuCount?: InputMaybe<Scalars['Int']['input']>;
  memoryMib: Scalars['Int']['input'];
  name: Scalars['String']['input'];
  shmMib?: Scalars['Int']['input'];
  tier?: GpuTier;
};

export type PresetEdge = {
  __typename?: 'PresetEdge';
  cursor: Scalars['String']['output'];
  node: Preset;
};

export type PresetPayload = {
  __typename?: 'PresetPayload';
  errors: Array<UserError>;
  preset?: Maybe<Preset>;
};

export type PresetUpdateInput = {
  cpuMillicores?: InputMaybe<Scalars['Int']['input']>;
  customCores?: InputMaybe<Scalars['Int']['input']>;
  customVramMib?: InputMaybe<Scalars['Int']['input']>;
  description?: InputMaybe<Scalars['String']['input']>;
  diskGib?: InputMaybe<Scalars['Int']['input']>;
  gpuCount?: InputMaybe<Scalars['Int']['input']>;
  id: Scalars['ID']['input'];
  memoryMib?: InputMaybe<Scalars['Int']['input']>;
  name?: InputMaybe<Scalars['String']['input']>;
  shmMib?: InputMaybe<Scalars['Int']['input']>;
  tier?: InputMaybe<GpuTier>;
};

export type Query = {
  __typename?: 'Query';
  /** Accounts the viewer administers, with balances. No filter: the top level (system and organisations for super_admins; organisations and administered groups otherwise); `organizationId`: its account, consumption sink and groups; `groupId`: its account and its members' wallets. */
  accounts: AccountConnection;
  /** The audit log, newest first; admins see the entries of the scopes they administer. */
  auditLog: AuditEntryConnection;
  /** Every periodic background job with its last run and next due time (super_admin). */
  backgroundJobs: Array<BackgroundJob>;
  /** May this user (the viewer by default) start GPU work in this group (their active group by default) now, by the budgets of the user, the group and the organisation? */
  budgetGate: BudgetGate;
  /** The budgets of one organisation, group or user (at most one per period length). */
  budgets: Array<Budget>;
  /** GPU capacity per resource kind and per model: Total / Used / Available, physical and logical. */
  capacity: Capacity;
  /** Nodes and cards with what runs on each (admins). */
  clusterNodes: Array<ClusterNode>;
  /** Clusters of the deployment. */
  clusters: Array<ClusterView>;
  /** Field by field, what applies to a user (the viewer by default) working in a group (their active group by default), and the scope each value came from. */
  effectivePolicy: EffectivePolicy;
  /** The GPU queue, per offering in admission order; sessions you may not see are anonymous. */
  gpuQueue: Array<QueueEntryView>;
  /** Groups the viewer can see, optionally of one organisation. */
  groups: GroupConnection;
  /** Credits spent in [since, until) (default: now) on GPU sessions while their GPU util stayed below `belowPercent` (default 5), per organisation, group or user, from the per-minute usage history and the ledger's charges, in the scopes you administer. */
  idleCreditsReport: IdleCreditsReport;
  /** Idle reclaim's pauses and the GPU-hours they returned, from the audit log of the scopes you administer (nothing for a member). `until` defaults to now. */
  idleReclaimReport: IdleReclaimReport;
  /** Global images, the viewer's organisations' images and the viewer's own. */
  images: ImageConnection;
  /** Suggested CPU/memory/GPU bundles from free resources (4 CPU + 16 GiB per GPU when nodes say nothing). */
  instanceBundles: Array<InstanceBundle>;
  /** Ledger history, newest first: the transfers of one account (any viewer of it), or of every account (super_admin only). Filters: transfer kind, period [since, until). The same history is exported as CSV by GET /exports/ledger.csv with the same filters. */
  ledgerHistory: LedgerTransferConnection;
  /** The signed-in user, or null. */
  me?: Maybe<User>;
  /** Where your queued sessions stand. */
  myQueuePositions: Array<SessionQueuePosition>;
  /** Your sessions, newest first. */
  mySessions: SessionConnection;
  /** The viewer's personal wallet: balance, held, available and open holds. */
  myWallet: Account;
  /** Any object by its global ID; null when missing or not visible. */
  node?: Maybe<Node>;
  /** A node operation and its progress (super_admin); null when unknown. */
  nodeOperation?: Maybe<NodeOperation>;
  /** Your notifications, newest first. */
  notifications: NotificationConnection;
  /** GPU offerings (disabled ones only for super_admins). */
  offerings: OfferingConnection;
  /** Organisations the viewer belongs to or administers. */
  organizations: OrganizationConnection;
  /** Sessions waiting for your approval. */
  pendingApprovals: SessionConnection;
  /** The viewer's personal access tokens, newest first (secrets are never shown again). */
  personalAccessTokens: PersonalAccessTokenConnection;
  /** Resource policies the viewer may see, widest scope first. */
  policies: ResourcePolicyConnection;
  /** The policy set at exactly this scope; null when none is set there. */
  policy?: Maybe<ResourcePolicy>;
  presets: PresetConnection;
  /** Refill schedules whose source the viewer administers, optionally of one source. */
  refillSchedules: RefillScheduleConnection;
  /** Registered clusters (super_admin; others see an empty list). */
  registeredClusters: Array<RegisteredCluster>;
  /** Global registries and those of the viewer's organisations. */
  registries: RegistryConnection;
  /** The last minutes of a session's per-second usage. */
  sessionUsage: Array<UsageSample>;
  /** Sessions in the scopes you administer (organisations, groups); all for super_admins. */
  sessions: SessionConnection;
  /** Storage classes volumes may use. */
  storageClasses: Array<StorageClass>;
  /** Templates of your groups. */
  templates: TemplateConnection;
  /** What a scope (with its descendants) spent in [since, until) (default: the current month), optionally split by GROUP or USER. */
  usageByScope: UsageSummary;
  /** Allocation (card equivalents, CPU, memory) and utilisation (GPU util and memory, CPU, memory) over [since, until) (default: now) per cluster, node, organisation or group, from the per-minute usage history, in the scopes you administer. `stepSeconds` (whole minutes) defaults to the finest step giving at most 500 points; at most 1500 points. */
  usageHistory: UsageHistory;
  /** What a scope (with its descendants) spent in [since, until) (default: the current month), split by GROUP, USER or OFFERING (the GPU model of the session each charge was posted for), and per DAY, WEEK or MONTH for charts. The same report is exported as CSV by GET /exports/usage.csv. */
  usageReport: UsageReport;
  /** Users the viewer can see: those of administered organisations and co-members. */
  users: UserConnection;
  /** Volumes you can see: yours, your groups', and those of organisations you administer. */
  volumes: VolumeConnection;
  /** One account the viewer may see: their own wallet, the wallets of the members of groups they administer, their groups' accounts, administered organisations' accounts. */
  wallet: Account;
};


export type QueryAccountsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  groupId?: InputMaybe<Scalars['ID']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  organizationId?: InputMaybe<Scalars['ID']['input']>;
};


export type QueryAuditLogArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  filter?: InputMaybe<AuditFilterInput>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryBudgetGateArgs = {
  groupId?: InputMaybe<Scalars['ID']['input']>;
  userId?: InputMaybe<Scalars['ID']['input']>;
};


export type QueryBudgetsArgs = {
  scope: ScopeInput;
};


export type QueryCapacityArgs = {
  clusterId?: InputMaybe<Scalars['String']['input']>;
};


export type QueryClusterNodesArgs = {
  clusterId?: InputMaybe<Scalars['String']['input']>;
};


export type QueryEffectivePolicyArgs = {
  groupId?: InputMaybe<Scalars['ID']['input']>;
  userId?: InputMaybe<Scalars['ID']['input']>;
};


export type QueryGpuQueueArgs = {
  offering?: InputMaybe<Scalars['String']['input']>;
};


export type QueryGroupsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  organizationId?: InputMaybe<Scalars['ID']['input']>;
};


export type QueryIdleCreditsReportArgs = {
  belowPercent?: Scalars['Float']['input'];
  by: IdleCreditsDimension;
  since: Scalars['DateTime']['input'];
  until?: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryIdleReclaimReportArgs = {
  since: Scalars['DateTime']['input'];
  until?: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryImagesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryInstanceBundlesArgs = {
  clusterId?: InputMaybe<Scalars['String']['input']>;
};


export type QueryLedgerHistoryArgs = {
  account?: InputMaybe<AccountInput>;
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  kind?: InputMaybe<TransferKind>;
  since?: InputMaybe<Scalars['DateTime']['input']>;
  until?: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryMySessionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  states?: InputMaybe<Array<SessionState>>;
};


export type QueryNodeArgs = {
  id: Scalars['ID']['input'];
};


export type QueryNodeOperationArgs = {
  id: Scalars['ID']['input'];
};


export type QueryNotificationsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  unreadOnly?: Scalars['Boolean']['input'];
};


export type QueryOfferingsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryOrganizationsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryPendingApprovalsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryPersonalAccessTokensArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryPoliciesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryPolicyArgs = {
  scope: ScopeInput;
};


export type QueryPresetsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryRefillSchedulesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  source?: InputMaybe<AccountInput>;
};


export type QueryRegistriesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
};


export type QuerySessionUsageArgs = {
  seconds?: Scalars['Int']['input'];
  sessionId: Scalars['ID']['input'];
};


export type QuerySessionsArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  groupId?: InputMaybe<Scalars['ID']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  organizationId?: InputMaybe<Scalars['ID']['input']>;
  states?: InputMaybe<Array<SessionState>>;
};


export type QueryTemplatesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryUsageByScopeArgs = {
  by?: InputMaybe<ScopeKind>;
  scope: ScopeInput;
  since?: InputMaybe<Scalars['DateTime']['input']>;
  until?: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryUsageHistoryArgs = {
  by: UsageHistoryDimension;
  since: Scalars['DateTime']['input'];
  stepSeconds?: InputMaybe<Scalars['Int']['input']>;
  until?: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryUsageReportArgs = {
  by?: InputMaybe<UsageDimension>;
  interval?: InputMaybe<UsageInterval>;
  scope: ScopeInput;
  since?: InputMaybe<Scalars['DateTime']['input']>;
  until?: InputMaybe<Scalars['DateTime']['input']>;
};


export type QueryUsersArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  before?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  groupId?: InputMaybe<Scalars['ID']['input']>;
  last?: InputMaybe<Scalars['Int']['input']>;
  organizationId?: InputMaybe<Scalars['ID']['input']>;
  search?: InputMaybe<Scalars['String']['input']>;
};


export type QueryVolumesArgs = {
  after?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
};


export type QueryWalletArgs = {
  account: AccountInput;
};

/** A queued request with its place in its offering's queue. */
export type QueueEntryView = {
  __typename?: 'QueueEntryView';
  /** A HAMi fraction's compute percentage (0 otherwise). */
  cores: Scalars['Int']['output'];
  /** Whole cards asked for (0 when it asks for a share). */
  exclusiveCards: Scalars['Int']['output'];
  length: Scalars['Int']['output'];
  offering: Scalars['String']['output'];
  position: Scalars['Int']['output'];
  priority: Scalars['Int']['output'];
  /** What it asks for, in English words (clients localise the typed fields below). */
  ratioOrCards: Scalars['String']['output'];
  sessionId?: Maybe<Scalars['ID']['output']>;
  /** The session's name, when visible to you. */
  sessionName?: Maybe<Scalars['String']['output']>;
  /** A time-slice of a card. */
  shared: Scalars['Boolean']['output'];
  /** A HAMi fraction's memory (0 otherwise). */
  vramMib: Scalars['Int']['output'];
};

export type QueuePosition = {
  __typename?: 'QueuePosition';
  length: Scalars['Int']['output'];
  offering: Scalars['String']['output'];
  /** 1 = next in line. */
  position: Scalars['Int']['output'];
};

export type RefillCadence =
  | 'DAILY'
  | 'MONTHLY'
  | 'WEEKLY';

/** GRANT adds the amount; TOP_UP brings the balance up to it. */
export type RefillMode =
  | 'GRANT'
  | 'TOP_UP';

/** Credits granted (or topped up) one level down, each period. */
export type RefillSchedule = Node & {
  __typename?: 'RefillSchedule';
  active: Scalars['Boolean']['output'];
  /** GRANT: added each period; TOP_UP: the balance it tops up to. */
  amount: Credits;
  /** Weekly: 0 = Monday … 6 = Sunday; monthly: 1 … 28. */
  anchorDay: Scalars['Int']['output'];
  cadence: RefillCadence;
  createdAt: Scalars['DateTime']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  /** The last period applied. */
  lastPeriodStart: Scalars['DateTime']['output'];
  /** The Group whose every member is refilled; null for a single target. */
  membersOfGroupId?: Maybe<Scalars['ID']['output']>;
  memo: Scalars['String']['output'];
  mode: RefillMode;
  source: AccountRef;
  /** The single account refilled; null when every member of a group is. */
  target?: Maybe<AccountRef>;
};

export type RefillScheduleConnection = {
  __typename?: 'RefillScheduleConnection';
  edges: Array<RefillScheduleEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<RefillSchedule>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

/** Refill one account below the source, or every member of the source group, each period. */
export type RefillScheduleCreateInput = {
  /** GRANT: added each period; TOP_UP: the balance to reach. */
  amountMicro: Scalars['BigInt']['input'];
  /** Weekly: 0 = Monday … 6; monthly: 1 … 28. */
  anchorDay?: Scalars['Int']['input'];
  cadence?: RefillCadence;
  /** Instead of `target`: every member of this group (the source must be the group). */
  membersOfGroupId?: InputMaybe<Scalars['ID']['input']>;
  memo?: Scalars['String']['input'];
  mode?: RefillMode;
  source: AccountInput;
  /** One account directly below the source. */
  target?: InputMaybe<AccountInput>;
};

export type RefillScheduleEdge = {
  __typename?: 'RefillScheduleEdge';
  cursor: Scalars['String']['output'];
  node: RefillSchedule;
};

export type RefillSchedulePayload = {
  __typename?: 'RefillSchedulePayload';
  errors: Array<UserError>;
  refillSchedule?: Maybe<RefillSchedule>;
};

export type RefillScheduleSetActiveInput = {
  active: Scalars['Boolean']['input'];
  id: Scalars['ID']['input'];
};

/** A cluster registered with gshare (its kubeconfig is never shown). */
export type RegisteredCluster = {
  __typename?: 'RegisteredCluster';
  /** EdDSA or ES256, from the registered key. */
  callbackKeyAlgorithm?: Maybe<Scalars['String']['output']>;
  callbackPublicKey?: Maybe<Scalars['String']['output']>;
  createdAt?: Maybe<Scalars['DateTime']['output']>;
  hasKubeconfig: Scalars['Boolean']['output'];
  /** A bearer token is kept (never shown). */
  hasPrometheusToken: Scalars['Boolean']['output'];
  id: Scalars['String']['output'];
  kind: Scalars['String']['output'];
  name: Scalars['String']['output'];
  placementPolicy: Scalars['String']['output'];
  /** Live usage also comes from this Prometheus (null: from the node agents only). */
  prometheusUrl?: Maybe<Scalars['String']['output']>;
};

/** An image registry; global or of one organisation. */
export type Registry = Node & {
  __typename?: 'Registry';
  createdAt: Scalars['DateTime']['output'];
  description: Scalars['String']['output'];
  /** Whether pull credentials are stored (the password is never shown). */
  hasCredentials: Scalars['Boolean']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  name: Scalars['String']['output'];
  organization?: Maybe<Organization>;
  /** The imagePullSecret sessions of its images carry in the sessions namespace. */
  pullSecretName?: Maybe<Scalars['String']['output']>;
  url: Scalars['String']['output'];
  /** The pull credentials' user name (null: public pulls). */
  username?: Maybe<Scalars['String']['output']>;
};

export type RegistryConnection = {
  __typename?: 'RegistryConnection';
  edges: Array<RegistryEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Registry>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type RegistryCreateInput = {
  description?: Scalars['String']['input'];
  name: Scalars['String']['input'];
  /** Null for a global registry. */
  organizationId?: InputMaybe<Scalars['ID']['input']>;
  /** Pull credentials: the password or token; stored sealed, never shown again. */
  password?: InputMaybe<Scalars['String']['input']>;
  url: Scalars['String']['input'];
  /** Pull credentials: the user name (with password). */
  username?: InputMaybe<Scalars['String']['input']>;
};

export type RegistryEdge = {
  __typename?: 'RegistryEdge';
  cursor: Scalars['String']['output'];
  node: Registry;
};

export type RegistryPayload = {
  __typename?: 'RegistryPayload';
  errors: Array<UserError>;
  registry?: Maybe<Registry>;
};

export type RegistryUpdateInput = {
  /** Remove the pull credentials. */
  clearCredentials?: Scalars['Boolean']['input'];
  description?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
  name?: InputMaybe<Scalars['String']['input']>;
  /** New pull credentials: the password or token. */
  password?: InputMaybe<Scalars['String']['input']>;
  url?: InputMaybe<Scalars['String']['input']>;
  /** New pull credentials: the user name. */
  username?: InputMaybe<Scalars['String']['input']>;
};

/** A scope's limits and settings; null fields are not set at this scope (settings inherit from a wider scope, limits do not bound this level). */
export type ResourcePolicy = Node & {
  __typename?: 'ResourcePolicy';
  /** null: any cluster. */
  allowedClusters?: Maybe<Array<Scalars['String']['output']>>;
  approvalRequired?: Maybe<Scalars['Boolean']['output']>;
  defaultPriority?: Maybe<Scalars['Int']['output']>;
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  idleTimeoutSeconds?: Maybe<Scalars['Int']['output']>;
  maxConcurrentSessions?: Maybe<Scalars['Int']['output']>;
  maxCpuMillicores?: Maybe<Scalars['Int']['output']>;
  /** Sum of GPU ratios (1 = one whole card), exact: "4", "2.5", "1/3". */
  maxGpus?: Maybe<Scalars['String']['output']>;
  maxMemoryMib?: Maybe<Scalars['Int']['output']>;
  maxSessionSeconds?: Maybe<Scalars['Int']['output']>;
  maxVramMib?: Maybe<Scalars['Int']['output']>;
  modelCaps: Array<ModelCap>;
  preemptible?: Maybe<Scalars['Boolean']['output']>;
  scope: Scope;
  storageQuotaMib?: Maybe<Scalars['Int']['output']>;
  updatedAt?: Maybe<Scalars['DateTime']['output']>;
  /** The User who last set it. */
  updatedBy?: Maybe<Scalars['ID']['output']>;
};

export type ResourcePolicyConnection = {
  __typename?: 'ResourcePolicyConnection';
  edges: Array<ResourcePolicyEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<ResourcePolicy>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type ResourcePolicyEdge = {
  __typename?: 'ResourcePolicyEdge';
  cursor: Scalars['String']['output'];
  node: ResourcePolicy;
};

/** Scoped roles (see DESIGN.md, Tenancy). */
export type Role =
  | 'GROUP_ADMIN'
  | 'GUEST'
  | 'MEMBER'
  | 'ORG_ADMIN'
  | 'SUPER_ADMIN';

/** An organisation, group or user (or the whole deployment) that a budget or policy is for. */
export type Scope = {
  __typename?: 'Scope';
  /** Global ID of the Organization, Group or User; null for GLOBAL. */
  id?: Maybe<Scalars['ID']['output']>;
  kind: ScopeKind;
  /** Its name (user name for users); null for GLOBAL. */
  name?: Maybe<Scalars['String']['output']>;
};

/** An organisation, group or user by global ID; GLOBAL (policies only) takes no id. */
export type ScopeInput = {
  id?: InputMaybe<Scalars['ID']['input']>;
  kind: ScopeKind;
};

export type ScopeKind =
  | 'GLOBAL'
  | 'GROUP'
  | 'ORGANIZATION'
  | 'USER';

/** An interactive GPU environment or a batch job. */
export type Session = Node & {
  __typename?: 'Session';
  /** The admin who approved it (sessions that needed approval), when known. */
  approver?: Maybe<User>;
  /** A job's arguments; empty for interactive sessions. */
  args: Array<Scalars['String']['output']>;
  /** How often a failed job run is retried (null for interactive sessions). */
  backoffLimit?: Maybe<Scalars['Int']['output']>;
  /** Credits charged to the wallet so far. */
  charged: Credits;
  /** A job's command (replaces the image's entrypoint); empty: the entrypoint runs. */
  command: Array<Scalars['String']['output']>;
  /** Credits owed so far for the seconds it ran (charged at pause, stop and by metering). */
  costSoFar: Credits;
  cpuMillicores: Scalars['Int']['output'];
  createdAt: Scalars['DateTime']['output'];
  diskGib: Scalars['Int']['output'];
  endpoints: SessionEndpoints;
  /** Its environment variables. */
  env: Array<EnvVar>;
  /** A job's exit code once it ended (0 with SUCCEEDED); null before, and for sessions. */
  exitCode?: Maybe<Scalars['Int']['output']>;
  expiresAt?: Maybe<Scalars['DateTime']['output']>;
  expiry: Expiry;
  /** True from 90 % of the time to expiry elapsed. */
  expiryWarning: Scalars['Boolean']['output'];
  gpu?: Maybe<SessionGpu>;
  /** The group it runs in (and is counted against). */
  group?: Maybe<Group>;
  groupId: Scalars['ID']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  imageReference: Scalars['String']['output'];
  kind: SessionKind;
  /** The last lines of its log: live while it runs, kept from the end for a finished job. Whoever may see the session may read it. */
  logTail: SessionLog;
  memoryMib: Scalars['Int']['output'];
  mounts: Array<SessionMount>;
  name: Scalars['String']['output'];
  /** Who asked for the session (seen by whoever may see the session). */
  owner?: Maybe<User>;
  ownerId: Scalars['ID']['output'];
  placement?: Maybe<SessionPlacement>;
  preemptible: Scalars['Boolean']['output'];
  priority: Scalars['Int']['output'];
  /** Place in the queue while QUEUED. */
  queuePosition?: Maybe<QueuePosition>;
  /** Seconds left before expiry (null when it never expires). */
  remainingSeconds?: Maybe<Scalars['Int']['output']>;
  /** Seconds spent RUNNING (what is billed). */
  runningSeconds: Scalars['Int']['output'];
  shmMib: Scalars['Int']['output'];
  startedAt?: Maybe<Scalars['DateTime']['output']>;
  state: SessionState;
  stateReason: Scalars['String']['output'];
  /** Why the session is in its state, as a code (WAITING_FOR_CAPACITY, PLACED, NODE_LOST...) for clients to say it in their own language; null for a reason stored before codes (stateReason is the English). */
  stateReasonCode?: Maybe<Scalars['String']['output']>;
  /** The state reason's parameters by name (node: a node's name; reason: an approver's words). */
  stateReasonParams: Array<ErrorParam>;
  /** The Template it was started from, if any. */
  templateId?: Maybe<Scalars['ID']['output']>;
  /** The name of the template it was started from; null without one or once deleted. */
  templateName?: Maybe<Scalars['String']['output']>;
  updatedAt: Scalars['DateTime']['output'];
};


/** An interactive GPU environment or a batch job. */
export type SessionLogTailArgs = {
  lines?: Scalars['Int']['input'];
};

export type SessionApproveInput = {
  /** Assign exclusive, shared (time-slice), MIG or HAMi. */
  gpuKind?: InputMaybe<GpuKind>;
  id: Scalars['ID']['input'];
};

export type SessionConnection = {
  __typename?: 'SessionConnection';
  edges: Array<SessionEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Session>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

/** Ask for a session: a preset (or an instance bundle) on an offering, an image, volumes. */
export type SessionCreateInput = {
  /** Jobs only: its arguments. */
  args?: Array<Scalars['String']['input']>;
  /** Jobs only: retries after a failed run (0 to 10, default 0). */
  backoffLimit?: InputMaybe<Scalars['Int']['input']>;
  bundleCpuMillicores?: InputMaybe<Scalars['Int']['input']>;
  /** Whole cards of an instance bundle (0 = CPU only). */
  bundleGpus?: InputMaybe<Scalars['Int']['input']>;
  bundleMemoryMib?: InputMaybe<Scalars['Int']['input']>;
  clusterId?: InputMaybe<Scalars['String']['input']>;
  /** Jobs only: what runs instead of the image's entrypoint. */
  command?: Array<Scalars['String']['input']>;
  env?: Array<EnvVarInput>;
  expiry?: Expiry;
  imageId: Scalars['ID']['input'];
  kind?: SessionKind;
  mounts?: Array<MountInput>;
  name: Scalars['String']['input'];
  /** The GPU model; needed for GPU presets. */
  offeringId?: InputMaybe<Scalars['ID']['input']>;
  presetId?: InputMaybe<Scalars['ID']['input']>;
  /** Ask for a time-slice of a card (no memory isolation). */
  shared?: Scalars['Boolean']['input'];
  shmMib?: InputMaybe<Scalars['Int']['input']>;
  templateId?: InputMaybe<Scalars['ID']['input']>;
  /** Whose wallet pays: yours only. */
  walletUserId?: InputMaybe<Scalars['ID']['input']>;
};

export type SessionEdge = {
  __typename?: 'SessionEdge';
  cursor: Scalars['String']['output'];
  node: Session;
};

/** The standard endpoints of a session, once the cluster reports them. */
export type SessionEndpoints = {
  __typename?: 'SessionEndpoints';
  jupyterlab?: Maybe<Scalars['String']['output']>;
  ssh?: Maybe<Scalars['String']['output']>;
  terminal?: Maybe<Scalars['String']['output']>;
  vscode?: Maybe<Scalars['String']['output']>;
};

export type SessionExtendInput = {
  expiry: Expiry;
  id: Scalars['ID']['input'];
};

/** The GPU part of a session: model, limits per card, cards and billing ratio. */
export type SessionGpu = {
  __typename?: 'SessionGpu';
  cards: Scalars['Int']['output'];
  cores: Scalars['Int']['output'];
  exclusive: Scalars['Boolean']['output'];
  /** Per hour on the card it is placed on; for a class of cards not yet placed, on the dearest card of the class (what its credit hold is computed from). */
  hourlyCost: Credits;
  /** The hourly cost on the cheapest and on the dearest card it may be placed on (equal for one model). */
  hourlyCostRange: CreditsRange;
  /** The GPU kind an approving admin assigned, if any. */
  kind?: Maybe<Scalars['String']['output']>;
  /** For a class of cards, the card models it may be placed on; empty for one model. */
  models: Array<Scalars['String']['output']>;
  offeringName: Scalars['String']['output'];
  /** For a class of cards, the card model the scheduler placed it on (billed at that model's rate); null until placed, and for an offering of one model. */
  placedModel?: Maybe<Scalars['String']['output']>;
  ratio: Scalars['String']['output'];
  shared: Scalars['Boolean']['output'];
  vramMib: Scalars['Int']['output'];
};

export type SessionKind =
  | 'INTERACTIVE'
  | 'JOB';

/** The last lines of a session's or job's log. */
export type SessionLog = {
  __typename?: 'SessionLog';
  lines: Array<Scalars['String']['output']>;
  /** True: read from the running container just now; false: kept from when the job ended. */
  live: Scalars['Boolean']['output'];
  /** Why there are no lines (not started, ended, cluster down). */
  reason?: Maybe<Scalars['String']['output']>;
};

export type SessionMount = {
  __typename?: 'SessionMount';
  mode: MountMode;
  mountPath: Scalars['String']['output'];
  volumeId: Scalars['ID']['output'];
  /** The volume's name; null once the volume is deleted. */
  volumeName?: Maybe<Scalars['String']['output']>;
};

export type SessionPayload = {
  __typename?: 'SessionPayload';
  errors: Array<UserError>;
  session?: Maybe<Session>;
};

/** Where the session runs. */
export type SessionPlacement = {
  __typename?: 'SessionPlacement';
  cardUuids: Array<Scalars['String']['output']>;
  clusterId: Scalars['String']['output'];
  /** hami, mig, shared or exclusive; cpu for a CPU-only session. */
  kind: Scalars['String']['output'];
  migInstanceId?: Maybe<Scalars['String']['output']>;
  nodeId: Scalars['String']['output'];
};

export type SessionQueuePosition = {
  __typename?: 'SessionQueuePosition';
  position: QueuePosition;
  session: Session;
};

export type SessionRejectInput = {
  id: Scalars['ID']['input'];
  reason: Scalars['String']['input'];
};

export type SessionState =
  | 'EXPIRED'
  | 'FAILED'
  | 'PAUSED'
  | 'PAUSING'
  | 'PENDING_APPROVAL'
  | 'PREEMPTED'
  | 'QUEUED'
  | 'REJECTED'
  | 'RESUMING'
  | 'RUNNING'
  | 'SCHEDULED'
  | 'STARTING'
  | 'STOPPED'
  | 'STOPPING'
  | 'SUCCEEDED';

export type SharingMode =
  | 'EXCLUSIVE'
  | 'HAMI'
  | 'TIMESLICING';

export type StorageClass = {
  __typename?: 'StorageClass';
  /** What the class's provisioner gives; group-shared volumes need READ_WRITE_MANY. */
  accessModes: Array<VolumeAccessMode>;
  description: Scalars['String']['output'];
  isDefault: Scalars['Boolean']['output'];
  name: Scalars['String']['output'];
};

export type StorageClassPayload = {
  __typename?: 'StorageClassPayload';
  errors: Array<UserError>;
  storageClass?: Maybe<StorageClass>;
};

export type StorageClassSetInput = {
  /** What the class's provisioner gives (NFS: READ_WRITE_MANY; a node-local disk: READ_WRITE_ONCE). */
  accessModes?: Array<VolumeAccessMode>;
  description?: Scalars['String']['input'];
  isDefault?: Scalars['Boolean']['input'];
  name: Scalars['String']['input'];
};

export type Subscription = {
  __typename?: 'Subscription';
  /** The admin session lists' live feed: the pending-approval count first, then an event each time sessions you may see change state or ask for approval (bursts coalesced over 200 ms). Lists refetch their page when it fires. */
  adminSessionsChanged: AdminSessionsChange;
  /** Capacity now, then again whenever placements, the queue or the inventory change. */
  capacityChanged: Capacity;
  /** Your queue positions now, then whenever the queue moves. */
  myQueuePositions: Array<SessionQueuePosition>;
  /** All your sessions: the current list, then the list again on every change. */
  mySessions: Array<Session>;
  /** Your wallet (balance, held, available) now, then after every change to it. */
  myWallet: Account;
  /** A node operation's progress: its current state, then every step. */
  nodeOperationProgress: NodeOperation;
  /** Your unread notifications now, then each new one. */
  notifications: Array<Notification>;
  /** One session: its current state, then every change until it ends. */
  sessionStatus: Session;
  /** A session's live usage at 1 s: the last 5 minutes first, then each new sample. */
  sessionUsage: Array<UsageSample>;
  /** The authenticated viewer: the current state first, then changes to the account. */
  viewer: ViewerState;
};


export type SubscriptionCapacityChangedArgs = {
  clusterId?: InputMaybe<Scalars['String']['input']>;
};


export type SubscriptionNodeOperationProgressArgs = {
  id: Scalars['ID']['input'];
};


export type SubscriptionSessionStatusArgs = {
  id: Scalars['ID']['input'];
};


export type SubscriptionSessionUsageArgs = {
  sessionId: Scalars['ID']['input'];
};

/** A group's saved session recipe. */
export type Template = Node & {
  __typename?: 'Template';
  cpuMillicores?: Maybe<Scalars['Int']['output']>;
  createdAt: Scalars['DateTime']['output'];
  description: Scalars['String']['output'];
  env: Scalars['JSON']['output'];
  groupId: Scalars['ID']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  imageId: Scalars['ID']['output'];
  memoryMib?: Maybe<Scalars['Int']['output']>;
  mounts: Array<TemplateMount>;
  name: Scalars['String']['output'];
  offeringId?: Maybe<Scalars['ID']['output']>;
  presetId?: Maybe<Scalars['ID']['output']>;
  shmMib?: Maybe<Scalars['Int']['output']>;
};

export type TemplateConnection = {
  __typename?: 'TemplateConnection';
  edges: Array<TemplateEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Template>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type TemplateCreateInput = {
  cpuMillicores?: InputMaybe<Scalars['Int']['input']>;
  description?: Scalars['String']['input'];
  env?: Array<EnvVarInput>;
  groupId: Scalars['ID']['input'];
  imageId: Scalars['ID']['input'];
  memoryMib?: InputMaybe<Scalars['Int']['input']>;
  mounts?: Array<MountInput>;
  name: Scalars['String']['input'];
  offeringId?: InputMaybe<Scalars['ID']['input']>;
  presetId?: InputMaybe<Scalars['ID']['input']>;
  shmMib?: InputMaybe<Scalars['Int']['input']>;
};

export type TemplateEdge = {
  __typename?: 'TemplateEdge';
  cursor: Scalars['String']['output'];
  node: Template;
};

export type TemplateMount = {
  __typename?: 'TemplateMount';
  mode: MountMode;
  mountPath: Scalars['String']['output'];
  volumeId: Scalars['ID']['output'];
};

export type TemplatePayload = {
  __typename?: 'TemplatePayload';
  errors: Array<UserError>;
  template?: Maybe<Template>;
};

export type TokenScope =
  | 'READ_ONLY'
  | 'READ_WRITE';

export type TransferKind =
  | 'ALLOCATION'
  | 'CHARGE'
  | 'REFILL'
  | 'TAKE_BACK';

/** What a usage report is split by. */
export type UsageDimension =
  | 'GROUP'
  | 'OFFERING'
  | 'USER';

/** Allocation and utilisation over time from the per-minute usage history, in the scopes you administer (nothing for a member). */
export type UsageHistory = {
  __typename?: 'UsageHistory';
  by: UsageHistoryDimension;
  series: Array<UsageHistorySeries>;
  since: Scalars['DateTime']['output'];
  stepSeconds: Scalars['Int']['output'];
  until: Scalars['DateTime']['output'];
};

/** What a usage history is split by (a node's key is `<cluster>/<node>`). */
export type UsageHistoryDimension =
  | 'CLUSTER'
  | 'GROUP'
  | 'NODE'
  | 'ORGANIZATION';

/** One step of a usage history series. */
export type UsageHistoryPoint = {
  __typename?: 'UsageHistoryPoint';
  /** The step's start. */
  at: Scalars['DateTime']['output'];
  /** GPUs allocated (card equivalents: the billed ratio), on average over the step. */
  cardEquivalents: Scalars['Float']['output'];
  /** CPU in use, on average over the step. */
  cpuMillicores: Scalars['Float']['output'];
  /** CPU allocated, on average over the step. */
  cpuMillicoresAllocated: Scalars['Float']['output'];
  /** GPU memory in use, on average over the step. */
  gpuMemoryMib: Scalars['Float']['output'];
  /** Mean GPU utilisation of the allocated cards (weighted by card equivalents) over the minutes with samples; null when no GPU minute of the step has any. */
  gpuUtilPercent?: Maybe<Scalars['Float']['output']>;
  /** Memory in use, on average over the step. */
  memoryMib: Scalars['Float']['output'];
  /** Memory allocated, on average over the step. */
  memoryMibAllocated: Scalars['Float']['output'];
  /** Session-minutes of the step without any usage sample (their use counts as unknown, not 0). */
  noDataMinutes: Scalars['Int']['output'];
  /** Sessions that ran in the step. */
  sessions: Scalars['Int']['output'];
};

/** One key's series: a cluster, node, organisation or group. */
export type UsageHistorySeries = {
  __typename?: 'UsageHistorySeries';
  /** Global ID of the Organization or Group; null for clusters and nodes. */
  id?: Maybe<Scalars['ID']['output']>;
  /** Cluster id, `<cluster>/<node>`, or the organisation's or group's UUID. */
  key: Scalars['String']['output'];
  /** The organisation's or group's name; the key itself for clusters and nodes. */
  name: Scalars['String']['output'];
  /** Oldest first; steps without sessions left out. */
  points: Array<UsageHistoryPoint>;
};

/** UTC days, weeks (from Monday) or months. */
export type UsageInterval =
  | 'DAY'
  | 'MONTH'
  | 'WEEK';

/** Charges attributed to a scope (with its descendants) in [since, until), split by group, user or offering, optionally per day, week or month. Offerings come from the session each metering charge was posted for. */
export type UsageReport = {
  __typename?: 'UsageReport';
  by?: Maybe<UsageDimension>;
  interval?: Maybe<UsageInterval>;
  /** The start of every period (empty without an interval). */
  periods: Array<Scalars['DateTime']['output']>;
  /** One per key, highest spend first. */
  rows: Array<UsageReportRow>;
  scope: Scope;
  since: Scalars['DateTime']['output'];
  spent: Credits;
  until: Scalars['DateTime']['output'];
};

/** One key of a usage report: a group, user or offering, with its spend. */
export type UsageReportRow = {
  __typename?: 'UsageReportRow';
  /** Global ID of the Group, User or Offering; null for the whole scope or for charges not posted for a session (no offering). */
  id?: Maybe<Scalars['ID']['output']>;
  /** What the report is split by; null without a split (the row is the whole scope). */
  kind?: Maybe<UsageDimension>;
  /** Its name (user name for users, model name for offerings); null when unknown. */
  name?: Maybe<Scalars['String']['output']>;
  /** Spend per period, aligned with `UsageReport.periods` (empty without an interval). */
  series: Array<Credits>;
  spent: Credits;
};

/** What one finer scope spent. */
export type UsageRow = {
  __typename?: 'UsageRow';
  scope: Scope;
  spent: Credits;
};

/** One per-second usage sample of a session. */
export type UsageSample = {
  __typename?: 'UsageSample';
  at: Scalars['DateTime']['output'];
  cpuMillicores: Scalars['Int']['output'];
  gpuMemoryMib: Scalars['Int']['output'];
  gpuUtilPercent: Scalars['Float']['output'];
  memoryMib: Scalars['Int']['output'];
};

/** Charges attributed to a scope (with its descendants) in [since, until). */
export type UsageSummary = {
  __typename?: 'UsageSummary';
  /** Split by the asked level, highest spend first. */
  breakdown: Array<UsageRow>;
  scope: Scope;
  since: Scalars['DateTime']['output'];
  spent: Credits;
  until: Scalars['DateTime']['output'];
};

export type User = Node & {
  __typename?: 'User';
  activeGroup?: Maybe<Group>;
  /** Organisations this user administers (that the viewer can see). */
  adminOf: Array<Organization>;
  createdAt: Scalars['DateTime']['output'];
  displayName: Scalars['String']['output'];
  email: Scalars['String']['output'];
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  isActive: Scalars['Boolean']['output'];
  isSuperAdmin: Scalars['Boolean']['output'];
  /** The user's memberships in groups the viewer can see. */
  memberships: Array<Membership>;
  username: Scalars['String']['output'];
};

export type UserConnection = {
  __typename?: 'UserConnection';
  edges: Array<UserEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<User>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type UserCreateInput = {
  displayName?: InputMaybe<Scalars['String']['input']>;
  email: Scalars['String']['input'];
  /** Groups of the organisation the user joins besides its Default group, with `role`; the first one is the user's active group (the Default group when none is named). */
  groupIds?: InputMaybe<Array<Scalars['ID']['input']>>;
  organizationId: Scalars['ID']['input'];
  /** Leave empty for OIDC-only accounts. */
  password?: InputMaybe<Scalars['String']['input']>;
  role?: Role;
  username: Scalars['String']['input'];
};

export type UserEdge = {
  __typename?: 'UserEdge';
  cursor: Scalars['String']['output'];
  node: User;
};

/** A refusal the client can act on. */
export type UserError = {
  code: ErrorCode;
  /** The input field it concerns, when it concerns one. */
  field?: Maybe<Scalars['String']['output']>;
  /** In English, for API clients; consoles say it from `code` and `params`. */
  message: Scalars['String']['output'];
  /** The refusal's numbers and names by name (e.g. POLICY_LIMIT_EXCEEDED: limit, used, requested; INSUFFICIENT_CREDITS: available, requested; BUDGET_EXCEEDED: limit, spent). */
  params: Array<ErrorParam>;
};

export type UserOrgAdminSetInput = {
  admin: Scalars['Boolean']['input'];
  organizationId: Scalars['ID']['input'];
  userId: Scalars['ID']['input'];
};

export type UserPasswordSetInput = {
  currentPassword?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
  newPassword: Scalars['String']['input'];
};

export type UserPayload = {
  __typename?: 'UserPayload';
  errors: Array<UserError>;
  user?: Maybe<User>;
};

export type UserSuperAdminSetInput = {
  id: Scalars['ID']['input'];
  superAdmin: Scalars['Boolean']['input'];
};

export type UserUpdateInput = {
  displayName?: InputMaybe<Scalars['String']['input']>;
  email?: InputMaybe<Scalars['String']['input']>;
  id: Scalars['ID']['input'];
  isActive?: InputMaybe<Scalars['Boolean']['input']>;
};

/** The viewer as the server sees this connection: sent first, then on every change. */
export type ViewerState = {
  __typename?: 'ViewerState';
  isSuperAdmin: Scalars['Boolean']['output'];
  readOnly: Scalars['Boolean']['output'];
  userId: Scalars['ID']['output'];
  username: Scalars['String']['output'];
};

/** Persistent storage: personal or shared by a group; free of credits. */
export type Volume = Node & {
  __typename?: 'Volume';
  /** The access mode of its claims (group-shared volumes: READ_WRITE_MANY). */
  accessMode: VolumeAccessMode;
  /** The name of its PersistentVolumeClaim in the sessions namespace of every cluster. */
  claimName: Scalars['String']['output'];
  /** Its claim on each cluster, as that cluster's operator reports it. */
  claims: Array<VolumeClaim>;
  createdAt: Scalars['DateTime']['output'];
  groupId?: Maybe<Scalars['ID']['output']>;
  /** The Globally Unique ID of this object */
  id: Scalars['ID']['output'];
  memberMode: MountMode;
  /** The widest mode you may mount it with (null: you may not). */
  myMountMode?: Maybe<MountMode>;
  name: Scalars['String']['output'];
  /** The worst phase of its claims (LOST, then PENDING, then BOUND); null until a cluster reports one. */
  phase?: Maybe<VolumeClaimPhase>;
  scope: VolumeScope;
  sizeMib: Scalars['Int']['output'];
  storageClass: Scalars['String']['output'];
};

/** A PersistentVolumeClaim's access mode (Kubernetes' ReadWriteOnce, ReadWriteMany, …). */
export type VolumeAccessMode =
  | 'READ_ONLY_MANY'
  | 'READ_WRITE_MANY'
  | 'READ_WRITE_ONCE'
  | 'READ_WRITE_ONCE_POD';

/** A volume's PersistentVolumeClaim on one cluster. */
export type VolumeClaim = {
  __typename?: 'VolumeClaim';
  clusterId: Scalars['String']['output'];
  phase: VolumeClaimPhase;
  reportedAt: Scalars['DateTime']['output'];
};

/** A PersistentVolumeClaim's phase as its cluster reports it. */
export type VolumeClaimPhase =
  | 'BOUND'
  | 'LOST'
  | 'PENDING';

export type VolumeConnection = {
  __typename?: 'VolumeConnection';
  edges: Array<VolumeEdge>;
  /** The nodes of this page, without their cursors. */
  nodes: Array<Volume>;
  pageInfo: PageInfo;
  totalCount: Scalars['Int']['output'];
};

export type VolumeCreateInput = {
  /** Share it with a group (you must administer it). */
  groupId?: InputMaybe<Scalars['ID']['input']>;
  memberMode?: MountMode;
  name: Scalars['String']['input'];
  sizeMib: Scalars['Int']['input'];
  storageClass?: InputMaybe<Scalars['String']['input']>;
};

export type VolumeEdge = {
  __typename?: 'VolumeEdge';
  cursor: Scalars['String']['output'];
  node: Volume;
};

export type VolumePayload = {
  __typename?: 'VolumePayload';
  errors: Array<UserError>;
  volume?: Maybe<Volume>;
};

export type VolumeScope =
  | 'GROUP'
  | 'PERSONAL';

export type AuditLogQueryVariables = Exact<{
  filter?: InputMaybe<AuditFilterInput>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type AuditLogQuery = { __typename: 'Query', auditLog: { __typename: 'AuditEntryConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'AuditEntry', id: string, at: string, actorUsername?: string | null, operation: string, targetType?: string | null, targetId?: string | null, targetName?: string | null, success: boolean, resultCode: string, durationMs: number, requestId?: string | null, clientIp?: string | null }> } };

export type OfferingsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type OfferingsQuery = { __typename: 'Query', offerings: { __typename: 'OfferingConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Offering', id: string, vendor: string, name: string, vramMib: number, cores: number, minCuda: string, resourceName: string, description: string, enabled: boolean, shareable: boolean, hourlyRate: { __typename: 'Credits', micro: string | number, credits: string }, cardClass?: { __typename: 'CardClass', models: Array<string> } | null, hourlyRateRange?: { __typename: 'CreditsRange', low: { __typename: 'Credits', credits: string }, high: { __typename: 'Credits', credits: string } } | null }> } };

export type OfferingCreateMutationVariables = Exact<{
  input: OfferingCreateInput;
}>;


export type OfferingCreateMutation = { __typename: 'Mutation', offeringCreate: { __typename: 'OfferingPayload', offering?: { __typename: 'Offering', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string }> } };

export type OfferingUpdateMutationVariables = Exact<{
  input: OfferingUpdateInput;
}>;


export type OfferingUpdateMutation = { __typename: 'Mutation', offeringUpdate: { __typename: 'OfferingPayload', offering?: { __typename: 'Offering', id: string, name: string, minCuda: string, enabled: boolean, description: string, hourlyRate: { __typename: 'Credits', micro: string | number, credits: string }, cardClass?: { __typename: 'CardClass', models: Array<string> } | null } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string }> } };

export type OfferingDeleteMutationVariables = Exact<{
  input: IdInput;
}>;


export type OfferingDeleteMutation = { __typename: 'Mutation', offeringDelete: { __typename: 'DeletePayload', deletedId?: string | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string }> } };

export type PresetsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
  offeringId: Scalars['ID']['input'];
  withLimits: Scalars['Boolean']['input'];
}>;


export type PresetsQuery = { __typename: 'Query', presets: { __typename: 'PresetConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Preset', id: string, name: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, tier: GpuTier, gpuCount: number, customVramMib?: number | null, customCores?: number | null, description: string, cpuOnly: boolean, gpuLimits?: { __typename: 'GpuLimits', vramMib: number, cores: number, cards: number, ratio: string, exclusive: boolean, hourlyCost: { __typename: 'Credits', credits: string } } | null }> } };

export type PresetCreateMutationVariables = Exact<{
  input: PresetCreateInput;
}>;


export type PresetCreateMutation = { __typename: 'Mutation', presetCreate: { __typename: 'PresetPayload', preset?: { __typename: 'Preset', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type PresetUpdateMutationVariables = Exact<{
  input: PresetUpdateInput;
}>;


export type PresetUpdateMutation = { __typename: 'Mutation', presetUpdate: { __typename: 'PresetPayload', preset?: { __typename: 'Preset', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type PresetDeleteMutationVariables = Exact<{
  input: IdInput;
}>;


export type PresetDeleteMutation = { __typename: 'Mutation', presetDelete: { __typename: 'DeletePayload', deletedId?: string | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type RegistriesQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type RegistriesQuery = { __typename: 'Query', registries: { __typename: 'RegistryConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Registry', id: string, name: string, url: string, description: string, createdAt: string, organization?: { __typename: 'Organization', id: string, name: string } | null }> } };

export type RegistryCreateMutationVariables = Exact<{
  input: RegistryCreateInput;
}>;


export type RegistryCreateMutation = { __typename: 'Mutation', registryCreate: { __typename: 'RegistryPayload', registry?: { __typename: 'Registry', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type RegistryUpdateMutationVariables = Exact<{
  input: RegistryUpdateInput;
}>;


export type RegistryUpdateMutation = { __typename: 'Mutation', registryUpdate: { __typename: 'RegistryPayload', registry?: { __typename: 'Registry', id: string, name: string, url: string, description: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type RegistryDeleteMutationVariables = Exact<{
  input: IdInput;
}>;


export type RegistryDeleteMutation = { __typename: 'Mutation', registryDelete: { __typename: 'DeletePayload', deletedId?: string | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type ClustersQueryVariables = Exact<{
  clusterId?: InputMaybe<Scalars['String']['input']>;
}>;


export type ClustersQuery = { __typename: 'Query', clusters: Array<{ __typename: 'ClusterView', id: string, name: string, kind: string, placementPolicy: string }>, clusterNodes: Array<{ __typename: 'ClusterNode', id: string, name: string, clusterId: string, clusterName: string, sharingMode: SharingMode, cpuMillicores: number, memoryMib: number, freeCpuMillicores: number, freeMemoryMib: number, cordoned: boolean, schedulable: boolean, staleResources: Array<string>, cards: Array<{ __typename: 'Card', uuid: string, model: string, vramMib: number, cores: number, migEnabled: boolean, timesliceReplicas: number, freeVramMib: number, freeCores: number, tenants: Array<{ __typename: 'CardTenant', sessionId?: string | null, sessionName?: string | null, vramMib: number, cores: number }>, migInstances: Array<{ __typename: 'MigInstance', id: string, profile: string, vramMib: number, tenant?: string | null, tenantName?: string | null }> }>, allocations: Array<{ __typename: 'AllocationView', sessionId?: string | null, sessionName?: string | null, kind: GpuKind, ratio: string, cardUuids: Array<string>, vramMib: number, cores: number }> }> };

export type NodeCordonSetMutationVariables = Exact<{
  input: NodeCordonSetInput;
}>;


export type NodeCordonSetMutation = { __typename: 'Mutation', nodeCordonSet: { __typename: 'NodeCordonPayload', nodeId?: string | null, cordoned?: boolean | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type NodeDrainMutationVariables = Exact<{
  input: NodeDrainInput;
}>;


export type NodeDrainMutation = { __typename: 'Mutation', nodeDrain: { __typename: 'NodeDrainPayload', nodeId?: string | null, drainedSessions: Array<string>, skippedSessions: Array<string>, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type GpuQueueQueryVariables = Exact<{ [key: string]: never; }>;


export type GpuQueueQuery = { __typename: 'Query', gpuQueue: Array<{ __typename: 'QueueEntryView', sessionId?: string | null, sessionName?: string | null, offering: string, position: number, length: number, priority: number, ratioOrCards: string, exclusiveCards: number, shared: boolean, vramMib: number, cores: number }> };

export type NodeSharingModeChangeMutationVariables = Exact<{
  input: NodeSharingModeChangeInput;
}>;


export type NodeSharingModeChangeMutation = { __typename: 'Mutation', nodeSharingModeChange: { __typename: 'NodeOperationPayload', operation?: { __typename: 'NodeOperation', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type NodeOperationProgressSubscriptionVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type NodeOperationProgressSubscription = { __typename?: 'Subscription', nodeOperationProgress: { __typename: 'NodeOperation', id: string, state: NodeOperationState, currentStep?: NodeOperationStep | null, drainedSessions: Array<string>, removedResources: Array<string>, error?: string | null, finishedAt?: string | null, steps: Array<{ __typename: 'NodeOperationProgress', step: NodeOperationStep, message: string, at: string }> } };

export type AccountsQueryVariables = Exact<{
  organizationId?: InputMaybe<Scalars['ID']['input']>;
  groupId?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type AccountsQuery = { __typename: 'Query', accounts: { __typename: 'AccountConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Account', id: string, kind: AccountKind, ownerId?: string | null, name: string, balance: { __typename: 'Credits', micro: string | number, credits: string }, held: { __typename: 'Credits', micro: string | number, credits: string }, available: { __typename: 'Credits', micro: string | number, credits: string } }> } };

export type CreditsAllocateMutationVariables = Exact<{
  input: CreditsAllocateInput;
}>;


export type CreditsAllocateMutation = { __typename: 'Mutation', creditsAllocate: { __typename: 'CreditsTransferPayload', replayed: boolean, transfer?: { __typename: 'LedgerTransfer', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type CreditsTakeBackMutationVariables = Exact<{
  input: CreditsTakeBackInput;
}>;


export type CreditsTakeBackMutation = { __typename: 'Mutation', creditsTakeBack: { __typename: 'CreditsTransferPayload', replayed: boolean, transfer?: { __typename: 'LedgerTransfer', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type CreditsAllocateToGroupMembersMutationVariables = Exact<{
  input: CreditsAllocateToGroupMembersInput;
}>;


export type CreditsAllocateToGroupMembersMutation = { __typename: 'Mutation', creditsAllocateToGroupMembers: { __typename: 'CreditsBulkTransferPayload', replayed: boolean, transfers: Array<{ __typename: 'LedgerTransfer', id: string }>, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type RefillSchedulesQueryVariables = Exact<{
  source?: InputMaybe<AccountInput>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type RefillSchedulesQuery = { __typename: 'Query', refillSchedules: { __typename: 'RefillScheduleConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'RefillSchedule', id: string, mode: RefillMode, cadence: RefillCadence, anchorDay: number, active: boolean, memo: string, lastPeriodStart: string, membersOfGroupId?: string | null, amount: { __typename: 'Credits', credits: string }, source: { __typename: 'AccountRef', name: string }, target?: { __typename: 'AccountRef', name: string } | null }> } };

export type RefillScheduleCreateMutationVariables = Exact<{
  input: RefillScheduleCreateInput;
}>;


export type RefillScheduleCreateMutation = { __typename: 'Mutation', refillScheduleCreate: { __typename: 'RefillSchedulePayload', refillSchedule?: { __typename: 'RefillSchedule', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type RefillScheduleSetActiveMutationVariables = Exact<{
  input: RefillScheduleSetActiveInput;
}>;


export type RefillScheduleSetActiveMutation = { __typename: 'Mutation', refillScheduleSetActive: { __typename: 'RefillSchedulePayload', refillSchedule?: { __typename: 'RefillSchedule', id: string, active: boolean } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type UsageHistoryQueryVariables = Exact<{
  since: Scalars['DateTime']['input'];
  by: UsageHistoryDimension;
  step?: InputMaybe<Scalars['Int']['input']>;
}>;


export type UsageHistoryQuery = { __typename: 'Query', usageHistory: { __typename: 'UsageHistory', since: string, until: string, by: UsageHistoryDimension, stepSeconds: number, series: Array<{ __typename: 'UsageHistorySeries', key: string, id?: string | null, name: string, points: Array<{ __typename: 'UsageHistoryPoint', at: string, sessions: number, cardEquivalents: number, gpuUtilPercent?: number | null, noDataMinutes: number }> }> } };

export type IdleCreditsQueryVariables = Exact<{
  since: Scalars['DateTime']['input'];
  by: IdleCreditsDimension;
}>;


export type IdleCreditsQuery = { __typename: 'Query', idleCreditsReport: { __typename: 'IdleCreditsReport', belowPercent: number, charged: { __typename: 'Credits', credits: string }, idleCharged: { __typename: 'Credits', credits: string }, rows: Array<{ __typename: 'IdleCreditsRow', id: string, name?: string | null, sessions: number, minutes: number, idleMinutes: number, noDataMinutes: number, charged: { __typename: 'Credits', credits: string }, idleCharged: { __typename: 'Credits', credits: string } }> } };

export type BackgroundJobsQueryVariables = Exact<{ [key: string]: never; }>;


export type BackgroundJobsQuery = { __typename: 'Query', backgroundJobs: Array<{ __typename: 'BackgroundJob', name: string, description: string, period: string, periodSeconds: number, nextDueAt: string, lastOutcome?: BackgroundJobOutcome | null, lastError?: string | null, lastRun?: { __typename: 'BackgroundJobRun', periodStart: string, finishedAt?: string | null, durationSeconds?: number | null, attempts: number, summary?: string | null, counts: Array<{ __typename: 'BackgroundJobCount', name: string, value: string }> } | null, lastSuccess?: { __typename: 'BackgroundJobRun', finishedAt?: string | null } | null }> };

export type OrganizationQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type OrganizationQuery = { __typename: 'Query', node?: { __typename: 'Account' } | { __typename: 'AuditEntry' } | { __typename: 'Budget' } | { __typename: 'CreditHold' } | { __typename: 'Group' } | { __typename: 'Image' } | { __typename: 'Offering' } | { __typename: 'Organization', id: string, name: string, slug: string, description: string, createdAt: string, viewerIsAdmin: boolean } | { __typename: 'PersonalAccessToken' } | { __typename: 'Preset' } | { __typename: 'RefillSchedule' } | { __typename: 'Registry' } | { __typename: 'ResourcePolicy' } | { __typename: 'Session' } | { __typename: 'Template' } | { __typename: 'User' } | { __typename: 'Volume' } | null };

export type OrganizationGroupsQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type OrganizationGroupsQuery = { __typename: 'Query', node?: { __typename: 'Account' } | { __typename: 'AuditEntry' } | { __typename: 'Budget' } | { __typename: 'CreditHold' } | { __typename: 'Group' } | { __typename: 'Image' } | { __typename: 'Offering' } | { __typename: 'Organization', id: string, groups: { __typename: 'GroupConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Group', id: string, name: string, description: string, isDefault: boolean, createdAt: string, viewerIsAdmin: boolean, members: { __typename: 'MembershipConnection', totalCount: number } }> } } | { __typename: 'PersonalAccessToken' } | { __typename: 'Preset' } | { __typename: 'RefillSchedule' } | { __typename: 'Registry' } | { __typename: 'ResourcePolicy' } | { __typename: 'Session' } | { __typename: 'Template' } | { __typename: 'User' } | { __typename: 'Volume' } | null };

export type OrganizationUsersQueryVariables = Exact<{
  id: Scalars['ID']['input'];
  search?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type OrganizationUsersQuery = { __typename: 'Query', node?: { __typename: 'Account' } | { __typename: 'AuditEntry' } | { __typename: 'Budget' } | { __typename: 'CreditHold' } | { __typename: 'Group' } | { __typename: 'Image' } | { __typename: 'Offering' } | { __typename: 'Organization', id: string, users: { __typename: 'UserConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'User', id: string, username: string, displayName: string, email: string, isActive: boolean, adminOf: Array<{ __typename: 'Organization', id: string }> }> } } | { __typename: 'PersonalAccessToken' } | { __typename: 'Preset' } | { __typename: 'RefillSchedule' } | { __typename: 'Registry' } | { __typename: 'ResourcePolicy' } | { __typename: 'Session' } | { __typename: 'Template' } | { __typename: 'User' } | { __typename: 'Volume' } | null };

export type GroupCreateMutationVariables = Exact<{
  input: GroupCreateInput;
}>;


export type GroupCreateMutation = { __typename: 'Mutation', groupCreate: { __typename: 'GroupPayload', group?: { __typename: 'Group', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type GroupUpdateMutationVariables = Exact<{
  input: GroupUpdateInput;
}>;


export type GroupUpdateMutation = { __typename: 'Mutation', groupUpdate: { __typename: 'GroupPayload', group?: { __typename: 'Group', id: string, name: string, description: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type GroupDeleteMutationVariables = Exact<{
  input: IdInput;
}>;


export type GroupDeleteMutation = { __typename: 'Mutation', groupDelete: { __typename: 'DeletePayload', deletedId?: string | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type UserOrgAdminSetMutationVariables = Exact<{
  input: UserOrgAdminSetInput;
}>;


export type UserOrgAdminSetMutation = { __typename: 'Mutation', userOrgAdminSet: { __typename: 'UserPayload', user?: { __typename: 'User', id: string, adminOf: Array<{ __typename: 'Organization', id: string, name: string }> } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type OrganizationsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type OrganizationsQuery = { __typename: 'Query', organizations: { __typename: 'OrganizationConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Organization', id: string, name: string, slug: string, description: string, createdAt: string, viewerIsAdmin: boolean }> } };

export type OrganizationCreateMutationVariables = Exact<{
  input: OrganizationCreateInput;
}>;


export type OrganizationCreateMutation = { __typename: 'Mutation', organizationCreate: { __typename: 'OrganizationPayload', organization?: { __typename: 'Organization', id: string, name: string, slug: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type OrganizationUpdateMutationVariables = Exact<{
  input: OrganizationUpdateInput;
}>;


export type OrganizationUpdateMutation = { __typename: 'Mutation', organizationUpdate: { __typename: 'OrganizationPayload', organization?: { __typename: 'Organization', id: string, name: string, description: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type BudgetsQueryVariables = Exact<{
  scope: ScopeInput;
}>;


export type BudgetsQuery = { __typename: 'Query', budgets: Array<{ __typename: 'Budget', id: string, action: BudgetAction, period: BudgetPeriod, alertThresholds: Array<number>, updatedAt: string, limit: { __typename: 'Credits', micro: string | number, credits: string }, status: { __typename: 'BudgetStatus', periodStart: string, periodEnd: string, percentUsed?: number | null, exceeded: boolean, crossedThresholds: Array<number>, spent: { __typename: 'Credits', credits: string } } }> };

export type BudgetSetMutationVariables = Exact<{
  input: BudgetSetInput;
}>;


export type BudgetSetMutation = { __typename: 'Mutation', budgetSet: { __typename: 'BudgetPayload', budget?: { __typename: 'Budget', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type BudgetDeleteMutationVariables = Exact<{
  input: IdInput;
}>;


export type BudgetDeleteMutation = { __typename: 'Mutation', budgetDelete: { __typename: 'DeletePayload', deletedId?: string | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type PoliciesQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type PoliciesQuery = { __typename: 'Query', policies: { __typename: 'ResourcePolicyConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'ResourcePolicy', id: string, maxConcurrentSessions?: number | null, maxGpus?: string | null, maxVramMib?: number | null, maxCpuMillicores?: number | null, maxMemoryMib?: number | null, storageQuotaMib?: number | null, idleTimeoutSeconds?: number | null, maxSessionSeconds?: number | null, approvalRequired?: boolean | null, defaultPriority?: number | null, preemptible?: boolean | null, allowedClusters?: Array<string> | null, scope: { __typename: 'Scope', kind: ScopeKind, id?: string | null, name?: string | null }, modelCaps: Array<{ __typename: 'ModelCap', model: string, cards: string }> }> } };

export type PolicySetMutationVariables = Exact<{
  input: PolicySetInput;
}>;


export type PolicySetMutation = { __typename: 'Mutation', policySet: { __typename: 'PolicyPayload', policy?: { __typename: 'ResourcePolicy', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type PolicyDeleteMutationVariables = Exact<{
  input: PolicyDeleteInput;
}>;


export type PolicyDeleteMutation = { __typename: 'Mutation', policyDelete: { __typename: 'DeletePayload', deletedId?: string | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type EffectivePolicyQueryVariables = Exact<{
  userId?: InputMaybe<Scalars['ID']['input']>;
}>;


export type EffectivePolicyQuery = { __typename: 'Query', effectivePolicy: { __typename: 'EffectivePolicy', allowedClusters?: Array<string> | null, chain: Array<{ __typename: 'Scope', kind: ScopeKind, name?: string | null }>, idleTimeoutSeconds: { __typename: 'EffectiveIntSetting', value?: number | null, source?: { __typename: 'Scope', kind: ScopeKind, name?: string | null } | null }, maxSessionSeconds: { __typename: 'EffectiveIntSetting', value?: number | null, source?: { __typename: 'Scope', kind: ScopeKind, name?: string | null } | null }, defaultPriority: { __typename: 'EffectiveIntSetting', value?: number | null, source?: { __typename: 'Scope', kind: ScopeKind, name?: string | null } | null }, approvalRequired: { __typename: 'EffectiveBooleanSetting', value: boolean, source?: { __typename: 'Scope', kind: ScopeKind, name?: string | null } | null }, preemptible: { __typename: 'EffectiveBooleanSetting', value: boolean, source?: { __typename: 'Scope', kind: ScopeKind, name?: string | null } | null }, limits: Array<{ __typename: 'EffectiveLimit', field: string, value: string, model?: string | null, scope: { __typename: 'Scope', kind: ScopeKind, name?: string | null } }> } };

export type AdminSessionFieldsFragment = { __typename: 'Session', ownerId: string, id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, owner?: { __typename: 'User', username: string, displayName: string } | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null };

export type AdminSessionsQueryVariables = Exact<{
  states?: InputMaybe<Array<SessionState> | SessionState>;
  organizationId?: InputMaybe<Scalars['ID']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type AdminSessionsQuery = { __typename: 'Query', sessions: { __typename: 'SessionConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Session', ownerId: string, id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, owner?: { __typename: 'User', username: string, displayName: string } | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null }> } };

export type PendingApprovalsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type PendingApprovalsQuery = { __typename: 'Query', pendingApprovals: { __typename: 'SessionConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Session', ownerId: string, id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, owner?: { __typename: 'User', username: string, displayName: string } | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null }> } };

export type SessionApproveMutationVariables = Exact<{
  input: SessionApproveInput;
}>;


export type SessionApproveMutation = { __typename: 'Mutation', sessionApprove: { __typename: 'SessionPayload', session?: { __typename: 'Session', id: string, state: SessionState } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type SessionRejectMutationVariables = Exact<{
  input: SessionRejectInput;
}>;


export type SessionRejectMutation = { __typename: 'Mutation', sessionReject: { __typename: 'SessionPayload', session?: { __typename: 'Session', id: string, state: SessionState } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type UsageReportQueryVariables = Exact<{
  scope: ScopeInput;
  since?: InputMaybe<Scalars['DateTime']['input']>;
  until?: InputMaybe<Scalars['DateTime']['input']>;
  by?: InputMaybe<UsageDimension>;
  interval?: InputMaybe<UsageInterval>;
}>;


export type UsageReportQuery = { __typename: 'Query', usageReport: { __typename: 'UsageReport', since: string, until: string, by?: UsageDimension | null, interval?: UsageInterval | null, periods: Array<string>, scope: { __typename: 'Scope', kind: ScopeKind, name?: string | null }, spent: { __typename: 'Credits', micro: string | number, credits: string }, rows: Array<{ __typename: 'UsageReportRow', kind?: UsageDimension | null, id?: string | null, name?: string | null, spent: { __typename: 'Credits', micro: string | number, credits: string }, series: Array<{ __typename: 'Credits', micro: string | number }> }> } };

export type UsageOrganizationsQueryVariables = Exact<{ [key: string]: never; }>;


export type UsageOrganizationsQuery = { __typename: 'Query', organizations: { __typename: 'OrganizationConnection', nodes: Array<{ __typename: 'Organization', id: string, viewerIsAdmin: boolean, groups: { __typename: 'GroupConnection', totalCount: number }, users: { __typename: 'UserConnection', totalCount: number } }> } };

export type UserCreateMutationVariables = Exact<{
  input: UserCreateInput;
}>;


export type UserCreateMutation = { __typename: 'Mutation', userCreate: { __typename: 'UserPayload', user?: { __typename: 'User', id: string, username: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type GroupOptionsQueryVariables = Exact<{
  organizationId?: InputMaybe<Scalars['ID']['input']>;
}>;


export type GroupOptionsQuery = { __typename: 'Query', groups: { __typename: 'GroupConnection', nodes: Array<{ __typename: 'Group', id: string, name: string, isDefault: boolean }> } };

export type UserQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type UserQuery = { __typename: 'Query', node?: { __typename: 'Account' } | { __typename: 'AuditEntry' } | { __typename: 'Budget' } | { __typename: 'CreditHold' } | { __typename: 'Group' } | { __typename: 'Image' } | { __typename: 'Offering' } | { __typename: 'Organization' } | { __typename: 'PersonalAccessToken' } | { __typename: 'Preset' } | { __typename: 'RefillSchedule' } | { __typename: 'Registry' } | { __typename: 'ResourcePolicy' } | { __typename: 'Session' } | { __typename: 'Template' } | { __typename: 'User', id: string, username: string, displayName: string, email: string, isActive: boolean, isSuperAdmin: boolean, createdAt: string, activeGroup?: { __typename: 'Group', id: string, name: string } | null, adminOf: Array<{ __typename: 'Organization', id: string, name: string }>, memberships: Array<{ __typename: 'Membership', role: Role, group: { __typename: 'Group', id: string, name: string, organization: { __typename: 'Organization', id: string, name: string } } }> } | { __typename: 'Volume' } | null };

export type UserUpdateMutationVariables = Exact<{
  input: UserUpdateInput;
}>;


export type UserUpdateMutation = { __typename: 'Mutation', userUpdate: { __typename: 'UserPayload', user?: { __typename: 'User', id: string, displayName: string, email: string, isActive: boolean } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type UserPasswordSetMutationVariables = Exact<{
  input: UserPasswordSetInput;
}>;


export type UserPasswordSetMutation = { __typename: 'Mutation', userPasswordSet: { __typename: 'UserPayload', user?: { __typename: 'User', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type UserSuperAdminSetMutationVariables = Exact<{
  input: UserSuperAdminSetInput;
}>;


export type UserSuperAdminSetMutation = { __typename: 'Mutation', userSuperAdminSet: { __typename: 'UserPayload', user?: { __typename: 'User', id: string, isSuperAdmin: boolean } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type MembershipSetMutationVariables = Exact<{
  input: MembershipSetInput;
}>;


export type MembershipSetMutation = { __typename: 'Mutation', membershipSet: { __typename: 'MembershipPayload', membership?: { __typename: 'Membership', role: Role } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type MembershipRemoveMutationVariables = Exact<{
  input: MembershipRemoveInput;
}>;


export type MembershipRemoveMutation = { __typename: 'Mutation', membershipRemove: { __typename: 'MembershipPayload', membership?: { __typename: 'Membership', role: Role } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type UserDeleteMutationVariables = Exact<{
  input: IdInput;
}>;


export type UserDeleteMutation = { __typename: 'Mutation', userDelete: { __typename: 'UserPayload', user?: { __typename: 'User', id: string, username: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type UsersQueryVariables = Exact<{
  organizationId?: InputMaybe<Scalars['ID']['input']>;
  search?: InputMaybe<Scalars['String']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type UsersQuery = { __typename: 'Query', users: { __typename: 'UserConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'User', id: string, username: string, displayName: string, email: string, isActive: boolean, isSuperAdmin: boolean, createdAt: string, memberships: Array<{ __typename: 'Membership', role: Role, group: { __typename: 'Group', id: string, name: string, organization: { __typename: 'Organization', id: string, name: string } } }> }> } };

export type ViewerStateSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type ViewerStateSubscription = { __typename?: 'Subscription', viewer: { __typename: 'ViewerState', userId: string, username: string, isSuperAdmin: boolean, readOnly: boolean } };

export type LogoutMutationVariables = Exact<{ [key: string]: never; }>;


export type LogoutMutation = { __typename: 'Mutation', logout: { __typename: 'LogoutPayload', ok: boolean, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { __typename: 'Query', me?: { __typename: 'User', id: string, username: string, displayName: string, email: string, isSuperAdmin: boolean, activeGroup?: { __typename: 'Group', id: string, name: string, organization: { __typename: 'Organization', id: string, name: string } } | null, memberships: Array<{ __typename: 'Membership', role: Role, group: { __typename: 'Group', id: string, name: string, organization: { __typename: 'Organization', id: string, name: string } } }>, adminOf: Array<{ __typename: 'Organization', id: string, name: string, slug: string }> } | null };

export type LoginMutationVariables = Exact<{
  input: LoginInput;
}>;


export type LoginMutation = { __typename: 'Mutation', login: { __typename: 'UserPayload', user?: { __typename: 'User', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type ScopeGroupsQueryVariables = Exact<{ [key: string]: never; }>;


export type ScopeGroupsQuery = { __typename: 'Query', groups: { __typename: 'GroupConnection', nodes: Array<{ __typename: 'Group', id: string, name: string, organization: { __typename: 'Organization', name: string } }> } };

export type ScopeUsersQueryVariables = Exact<{
  search?: InputMaybe<Scalars['String']['input']>;
}>;


export type ScopeUsersQuery = { __typename: 'Query', users: { __typename: 'UserConnection', nodes: Array<{ __typename: 'User', id: string, username: string, displayName: string }> } };

export type CapacityTickSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type CapacityTickSubscription = { __typename?: 'Subscription', capacityChanged: { __typename: 'Capacity', models: Array<{ __typename: 'ModelCapacity', model: string }> } };

export type AdminSessionsTickSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type AdminSessionsTickSubscription = { __typename?: 'Subscription', adminSessionsChanged: { __typename: 'AdminSessionsChange', pendingApprovals: number, sessionIds: Array<string> } };

export type OrganizationOptionsQueryVariables = Exact<{ [key: string]: never; }>;


export type OrganizationOptionsQuery = { __typename: 'Query', organizations: { __typename: 'OrganizationConnection', nodes: Array<{ __typename: 'Organization', id: string, name: string, viewerIsAdmin: boolean }> } };

export type RegistryOptionsQueryVariables = Exact<{ [key: string]: never; }>;


export type RegistryOptionsQuery = { __typename: 'Query', registries: { __typename: 'RegistryConnection', nodes: Array<{ __typename: 'Registry', id: string, name: string, url: string }> } };

export type OfferingOptionsQueryVariables = Exact<{ [key: string]: never; }>;


export type OfferingOptionsQuery = { __typename: 'Query', offerings: { __typename: 'OfferingConnection', nodes: Array<{ __typename: 'Offering', id: string, vendor: string, name: string, vramMib: number, enabled: boolean, minCuda: string, hourlyRate: { __typename: 'Credits', credits: string } }> } };

export type MyWalletQueryVariables = Exact<{ [key: string]: never; }>;


export type MyWalletQuery = { __typename: 'Query', myWallet: { __typename: 'Account', id: string, holds: Array<{ __typename: 'CreditHold', id: string, status: HoldStatus, createdAt: string, memo: string, amount: { __typename: 'Credits', credits: string }, reserved: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string } }> } };

export type AccountFieldsFragment = { __typename: 'Account', id: string, kind: AccountKind, ownerId?: string | null, name: string, balance: { __typename: 'Credits', micro: string | number, credits: string }, held: { __typename: 'Credits', micro: string | number, credits: string }, available: { __typename: 'Credits', micro: string | number, credits: string } };

export type MyWalletLiveSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type MyWalletLiveSubscription = { __typename?: 'Subscription', myWallet: { __typename: 'Account', id: string, kind: AccountKind, ownerId?: string | null, name: string, balance: { __typename: 'Credits', micro: string | number, credits: string }, held: { __typename: 'Credits', micro: string | number, credits: string }, available: { __typename: 'Credits', micro: string | number, credits: string } } };

export type LedgerHistoryQueryVariables = Exact<{
  account?: InputMaybe<AccountInput>;
  kind?: InputMaybe<TransferKind>;
  since?: InputMaybe<Scalars['DateTime']['input']>;
  until?: InputMaybe<Scalars['DateTime']['input']>;
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type LedgerHistoryQuery = { __typename: 'Query', ledgerHistory: { __typename: 'LedgerTransferConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'LedgerTransfer', id: string, seq?: string | number | null, kind: TransferKind, createdAt: string, memo: string, amount: { __typename: 'Credits', micro: string | number, credits: string }, source: { __typename: 'AccountRef', kind: AccountKind, accountId: string, name: string }, destination: { __typename: 'AccountRef', kind: AccountKind, accountId: string, name: string } }> } };

export type CapacityLiveSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type CapacityLiveSubscription = { __typename?: 'Subscription', capacityChanged: { __typename: 'Capacity', byResource: Array<{ __typename: 'CapacityRow', resource: string, kind: GpuKind, model?: string | null, shared: boolean, usedCardEquivalents: number, physical: { __typename: 'Counts', total: number, used: number, available: number }, logical: { __typename: 'Counts', total: number, used: number, available: number } }>, models: Array<{ __typename: 'ModelCapacity', model: string, physical: { __typename: 'Counts', total: number, used: number, available: number }, logical: { __typename: 'Counts', total: number, used: number, available: number } }> } };

export type ActiveGroupSetMutationVariables = Exact<{
  input: ActiveGroupSetInput;
}>;


export type ActiveGroupSetMutation = { __typename: 'Mutation', activeGroupSet: { __typename: 'UserPayload', user?: { __typename: 'User', id: string, activeGroup?: { __typename: 'Group', id: string, name: string, organization: { __typename: 'Organization', id: string, name: string } } | null } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type NotificationsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type NotificationsQuery = { __typename: 'Query', notifications: { __typename: 'NotificationConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Notification', id: string, kind: string, message: string, createdAt: string, readAt?: string | null, sessionId?: string | null }> } };

export type NotificationsLiveSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type NotificationsLiveSubscription = { __typename?: 'Subscription', notifications: Array<{ __typename: 'Notification', id: string }> };

export type NotificationsMarkReadMutationVariables = Exact<{
  input: NotificationsMarkReadInput;
}>;


export type NotificationsMarkReadMutation = { __typename: 'Mutation', notificationsMarkRead: { __typename: 'NotificationsMarkReadPayload', marked: number, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type ImagesQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type ImagesQuery = { __typename: 'Query', images: { __typename: 'ImageConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Image', id: string, name: string, reference: string, cudaVersion?: string | null, scope: ImageScope, description: string, createdAt: string, registry?: { __typename: 'Registry', id: string, name: string } | null, organization?: { __typename: 'Organization', id: string, name: string } | null }> } };

export type ImageCreateMutationVariables = Exact<{
  input: ImageCreateInput;
}>;


export type ImageCreateMutation = { __typename: 'Mutation', imageCreate: { __typename: 'ImagePayload', image?: { __typename: 'Image', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type ImageUpdateMutationVariables = Exact<{
  input: ImageUpdateInput;
}>;


export type ImageUpdateMutation = { __typename: 'Mutation', imageUpdate: { __typename: 'ImagePayload', image?: { __typename: 'Image', id: string, name: string, reference: string, cudaVersion?: string | null, description: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type ImageDeleteMutationVariables = Exact<{
  input: IdInput;
}>;


export type ImageDeleteMutation = { __typename: 'Mutation', imageDelete: { __typename: 'DeletePayload', deletedId?: string | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type JobChoicesQueryVariables = Exact<{ [key: string]: never; }>;


export type JobChoicesQuery = { __typename: 'Query', offerings: { __typename: 'OfferingConnection', nodes: Array<{ __typename: 'Offering', id: string, name: string, vramMib: number }> }, presets: { __typename: 'PresetConnection', nodes: Array<{ __typename: 'Preset', id: string, name: string, tier: GpuTier, gpuCount: number }> }, images: { __typename: 'ImageConnection', nodes: Array<{ __typename: 'Image', id: string, name: string, reference: string }> } };

export type MyJobsQueryVariables = Exact<{ [key: string]: never; }>;


export type MyJobsQuery = { __typename: 'Query', mySessions: { __typename: 'SessionConnection', nodes: Array<{ __typename: 'Session', id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, exitCode?: number | null, createdAt: string, gpu?: { __typename: 'SessionGpu', offeringName: string, cards: number } | null }> } };

export type JobDetailQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type JobDetailQuery = { __typename: 'Query', node?: { __typename: 'Account' } | { __typename: 'AuditEntry' } | { __typename: 'Budget' } | { __typename: 'CreditHold' } | { __typename: 'Group' } | { __typename: 'Image' } | { __typename: 'Offering' } | { __typename: 'Organization' } | { __typename: 'PersonalAccessToken' } | { __typename: 'Preset' } | { __typename: 'RefillSchedule' } | { __typename: 'Registry' } | { __typename: 'ResourcePolicy' } | { __typename: 'Session', id: string, name: string, state: SessionState, stateReason: string, exitCode?: number | null, command: Array<string>, args: Array<string>, backoffLimit?: number | null, logTail: { __typename: 'SessionLog', lines: Array<string>, live: boolean, reason?: string | null } } | { __typename: 'Template' } | { __typename: 'User' } | { __typename: 'Volume' } | null };

export type GroupCapsQueryVariables = Exact<{
  groupId?: InputMaybe<Scalars['ID']['input']>;
}>;


export type GroupCapsQuery = { __typename: 'Query', effectivePolicy: { __typename: 'EffectivePolicy', limits: Array<{ __typename: 'EffectiveLimit', field: string, model?: string | null, value: string, used?: string | null, remaining?: string | null, scope: { __typename: 'Scope', kind: ScopeKind, name?: string | null } }> } };

export type GpuAvailabilityQueryVariables = Exact<{ [key: string]: never; }>;


export type GpuAvailabilityQuery = { __typename: 'Query', capacity: { __typename: 'Capacity', models: Array<{ __typename: 'ModelCapacity', model: string, physical: { __typename: 'Counts', total: number, used: number, available: number } }> } };

export type NewSessionChoicesQueryVariables = Exact<{
  offeringId: Scalars['ID']['input'];
  withOffering: Scalars['Boolean']['input'];
}>;


export type NewSessionChoicesQuery = { __typename: 'Query', presets: { __typename: 'PresetConnection', nodes: Array<{ __typename: 'Preset', id: string, name: string, cpuMillicores: number, memoryMib: number, tier: GpuTier, gpuCount: number, cpuOnly: boolean, gpuLimits?: { __typename: 'GpuLimits', vramMib: number, cores: number, cards: number, ratio: string, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, hourlyCostRange?: { __typename: 'CreditsRange', low: { __typename: 'Credits', micro: string | number }, high: { __typename: 'Credits', micro: string | number } } | null }> }, images: { __typename: 'ImageConnection', nodes: Array<{ __typename: 'Image', id: string, name: string, reference: string, cudaVersion?: string | null, scope: ImageScope }> }, volumes: { __typename: 'VolumeConnection', nodes: Array<{ __typename: 'Volume', id: string, name: string, scope: VolumeScope, sizeMib: number, myMountMode?: MountMode | null }> }, templates: { __typename: 'TemplateConnection', nodes: Array<{ __typename: 'Template', id: string, name: string, imageId: string, presetId?: string | null, offeringId?: string | null, cpuMillicores?: number | null, memoryMib?: number | null, shmMib?: number | null, env: any, mounts: Array<{ __typename: 'TemplateMount', volumeId: string, mountPath: string, mode: MountMode }> }> }, instanceBundles: Array<{ __typename: 'InstanceBundle', name: string, model?: string | null, gpus: number, cpuMillicores: number, memoryMib: number, nodes: number }> };

export type CudaCheckQueryVariables = Exact<{
  imageId: Scalars['ID']['input'];
  offeringId: Scalars['ID']['input'];
}>;


export type CudaCheckQuery = { __typename: 'Query', node?: { __typename: 'Account' } | { __typename: 'AuditEntry' } | { __typename: 'Budget' } | { __typename: 'CreditHold' } | { __typename: 'Group' } | { __typename: 'Image', id: string, cudaCompatibility: { __typename: 'CudaCompatibility', compatible: boolean, reason?: string | null } } | { __typename: 'Offering' } | { __typename: 'Organization' } | { __typename: 'PersonalAccessToken' } | { __typename: 'Preset' } | { __typename: 'RefillSchedule' } | { __typename: 'Registry' } | { __typename: 'ResourcePolicy' } | { __typename: 'Session' } | { __typename: 'Template' } | { __typename: 'User' } | { __typename: 'Volume' } | null };

export type TemplateSaveMutationVariables = Exact<{
  input: TemplateCreateInput;
}>;


export type TemplateSaveMutation = { __typename: 'Mutation', templateCreate: { __typename: 'TemplatePayload', template?: { __typename: 'Template', id: string, name: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type MySessionsQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type MySessionsQuery = { __typename: 'Query', mySessions: { __typename: 'SessionConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Session', id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null }> } };

export type SessionFieldsFragment = { __typename: 'Session', id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null };

export type MySessionsLiveSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type MySessionsLiveSubscription = { __typename?: 'Subscription', mySessions: Array<{ __typename: 'Session', id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null }> };

export type SessionStatusSubscriptionVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type SessionStatusSubscription = { __typename?: 'Subscription', sessionStatus: { __typename: 'Session', id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null } };

export type SessionChargedQueryVariables = Exact<{
  id: Scalars['ID']['input'];
}>;


export type SessionChargedQuery = { __typename: 'Query', node?: { __typename: 'Account' } | { __typename: 'AuditEntry' } | { __typename: 'Budget' } | { __typename: 'CreditHold' } | { __typename: 'Group' } | { __typename: 'Image' } | { __typename: 'Offering' } | { __typename: 'Organization' } | { __typename: 'PersonalAccessToken' } | { __typename: 'Preset' } | { __typename: 'RefillSchedule' } | { __typename: 'Registry' } | { __typename: 'ResourcePolicy' } | { __typename: 'Session', id: string, runningSeconds: number, charged: { __typename: 'Credits', credits: string } } | { __typename: 'Template' } | { __typename: 'User' } | { __typename: 'Volume' } | null };

export type SessionUsageLiveSubscriptionVariables = Exact<{
  sessionId: Scalars['ID']['input'];
}>;


export type SessionUsageLiveSubscription = { __typename?: 'Subscription', sessionUsage: Array<{ __typename: 'UsageSample', at: string, cpuMillicores: number, memoryMib: number, gpuUtilPercent: number, gpuMemoryMib: number }> };

export type SessionPauseMutationVariables = Exact<{
  input: IdInput;
}>;


export type SessionPauseMutation = { __typename: 'Mutation', sessionPause: { __typename: 'SessionPayload', session?: { __typename: 'Session', id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type SessionResumeMutationVariables = Exact<{
  input: IdInput;
}>;


export type SessionResumeMutation = { __typename: 'Mutation', sessionResume: { __typename: 'SessionPayload', session?: { __typename: 'Session', id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type SessionStopMutationVariables = Exact<{
  input: IdInput;
}>;


export type SessionStopMutation = { __typename: 'Mutation', sessionStop: { __typename: 'SessionPayload', session?: { __typename: 'Session', id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type SessionExtendMutationVariables = Exact<{
  input: SessionExtendInput;
}>;


export type SessionExtendMutation = { __typename: 'Mutation', sessionExtend: { __typename: 'SessionPayload', session?: { __typename: 'Session', id: string, name: string, kind: SessionKind, state: SessionState, stateReason: string, stateReasonCode?: string | null, imageReference: string, cpuMillicores: number, memoryMib: number, diskGib: number, shmMib: number, expiry: Expiry, expiresAt?: string | null, createdAt: string, startedAt?: string | null, remainingSeconds?: number | null, expiryWarning: boolean, runningSeconds: number, templateName?: string | null, stateReasonParams: Array<{ __typename: 'ErrorParam', name: string, value: string }>, costSoFar: { __typename: 'Credits', credits: string }, charged: { __typename: 'Credits', credits: string }, gpu?: { __typename: 'SessionGpu', offeringName: string, placedModel?: string | null, vramMib: number, cores: number, cards: number, exclusive: boolean, shared: boolean, ratio: string, kind?: string | null, hourlyCost: { __typename: 'Credits', micro: string | number, credits: string } } | null, endpoints: { __typename: 'SessionEndpoints', vscode?: string | null, jupyterlab?: string | null, terminal?: string | null, ssh?: string | null }, mounts: Array<{ __typename: 'SessionMount', volumeId: string, volumeName?: string | null, mountPath: string, mode: MountMode }>, group?: { __typename: 'Group', name: string } | null, approver?: { __typename: 'User', username: string, displayName: string } | null, placement?: { __typename: 'SessionPlacement', clusterId: string, nodeId: string, kind: string, cardUuids: Array<string>, migInstanceId?: string | null } | null, queuePosition?: { __typename: 'QueuePosition', offering: string, position: number, length: number } | null } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type SessionCreateMutationVariables = Exact<{
  input: SessionCreateInput;
}>;


export type SessionCreateMutation = { __typename: 'Mutation', sessionCreate: { __typename: 'SessionPayload', session?: { __typename: 'Session', id: string, state: SessionState, stateReason: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type TemplatesQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type TemplatesQuery = { __typename: 'Query', templates: { __typename: 'TemplateConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Template', id: string, name: string, description: string, createdAt: string, groupId: string, imageId: string, presetId?: string | null, offeringId?: string | null, cpuMillicores?: number | null, memoryMib?: number | null, shmMib?: number | null, env: any, mounts: Array<{ __typename: 'TemplateMount', volumeId: string, mountPath: string, mode: MountMode }> }> }, images: { __typename: 'ImageConnection', nodes: Array<{ __typename: 'Image', id: string, name: string }> }, presets: { __typename: 'PresetConnection', nodes: Array<{ __typename: 'Preset', id: string, name: string }> } };

export type TemplateCreateMutationVariables = Exact<{
  input: TemplateCreateInput;
}>;


export type TemplateCreateMutation = { __typename: 'Mutation', templateCreate: { __typename: 'TemplatePayload', template?: { __typename: 'Template', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type TemplateDeleteMutationVariables = Exact<{
  input: IdInput;
}>;


export type TemplateDeleteMutation = { __typename: 'Mutation', templateDelete: { __typename: 'DeletePayload', deletedId?: string | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type PersonalAccessTokensQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type PersonalAccessTokensQuery = { __typename: 'Query', personalAccessTokens: { __typename: 'PersonalAccessTokenConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'PersonalAccessToken', id: string, name: string, scope: TokenScope, tokenPrefix: string, createdAt: string, expiresAt?: string | null, revokedAt?: string | null, lastUsedAt?: string | null, active: boolean }> } };

export type PersonalAccessTokenCreateMutationVariables = Exact<{
  input: PersonalAccessTokenCreateInput;
}>;


export type PersonalAccessTokenCreateMutation = { __typename: 'Mutation', personalAccessTokenCreate: { __typename: 'PersonalAccessTokenCreatePayload', secret?: string | null, token?: { __typename: 'PersonalAccessToken', id: string, name: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type PersonalAccessTokenRevokeMutationVariables = Exact<{
  input: IdInput;
}>;


export type PersonalAccessTokenRevokeMutation = { __typename: 'Mutation', personalAccessTokenRevoke: { __typename: 'PersonalAccessTokenPayload', token?: { __typename: 'PersonalAccessToken', id: string, active: boolean, revokedAt?: string | null } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type VolumesQueryVariables = Exact<{
  first?: InputMaybe<Scalars['Int']['input']>;
  after?: InputMaybe<Scalars['String']['input']>;
}>;


export type VolumesQuery = { __typename: 'Query', volumes: { __typename: 'VolumeConnection', totalCount: number, pageInfo: { __typename: 'PageInfo', hasNextPage: boolean, endCursor?: string | null }, nodes: Array<{ __typename: 'Volume', id: string, name: string, scope: VolumeScope, storageClass: string, sizeMib: number, memberMode: MountMode, myMountMode?: MountMode | null, createdAt: string, groupId?: string | null }> }, storageClasses: Array<{ __typename: 'StorageClass', name: string, description: string, isDefault: boolean }> };

export type VolumeCreateMutationVariables = Exact<{
  input: VolumeCreateInput;
}>;


export type VolumeCreateMutation = { __typename: 'Mutation', volumeCreate: { __typename: 'VolumePayload', volume?: { __typename: 'Volume', id: string } | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export type VolumeDeleteMutationVariables = Exact<{
  input: IdInput;
}>;


export type VolumeDeleteMutation = { __typename: 'Mutation', volumeDelete: { __typename: 'DeletePayload', deletedId?: string | null, errors: Array<{ __typename: 'MutationError', code: ErrorCode, field?: string | null, message: string, params: Array<{ __typename: 'ErrorParam', name: string, value: string }> }> } };

export const SessionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}}]} as unknown as DocumentNode<SessionFieldsFragment, unknown>;
export const AdminSessionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdminSessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}}]} as unknown as DocumentNode<AdminSessionFieldsFragment, unknown>;
export const AccountFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AccountFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Account"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"held"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"available"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}}]} as unknown as DocumentNode<AccountFieldsFragment, unknown>;
export const AuditLogDocument = {"__meta__":{"hash":"777169bfa421d2bd68bf2fd359e139b2db1040d298e83258858102c967c2c7ba"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AuditLog"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"AuditFilterInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"auditLog"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"actorUsername"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"targetType"}},{"kind":"Field","name":{"kind":"Name","value":"targetId"}},{"kind":"Field","name":{"kind":"Name","value":"targetName"}},{"kind":"Field","name":{"kind":"Name","value":"success"}},{"kind":"Field","name":{"kind":"Name","value":"resultCode"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"requestId"}},{"kind":"Field","name":{"kind":"Name","value":"clientIp"}}]}}]}}]}}]} as unknown as DocumentNode<AuditLogQuery, AuditLogQueryVariables>;
export const OfferingsDocument = {"__meta__":{"hash":"4bff7b22dea07bfb71ba9446b116fee1e3aaa35ae216e01b9114b3be9fea3a4f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Offerings"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offerings"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"vendor"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"minCuda"}},{"kind":"Field","name":{"kind":"Name","value":"resourceName"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"shareable"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyRate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cardClass"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"models"}}]}},{"kind":"Field","name":{"kind":"Name","value":"hourlyRateRange"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"low"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"high"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<OfferingsQuery, OfferingsQueryVariables>;
export const OfferingCreateDocument = {"__meta__":{"hash":"5cbb250bbf56a5b67338477bef22d41409ce7130b1c26b855dc350de8d86e58a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OfferingCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OfferingCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<OfferingCreateMutation, OfferingCreateMutationVariables>;
export const OfferingUpdateDocument = {"__meta__":{"hash":"b7c672d5f84813a9ddd78e10258c248d638129394a607f0b66e9afaa6d9566fb"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OfferingUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OfferingUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"minCuda"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyRate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"cardClass"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"models"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<OfferingUpdateMutation, OfferingUpdateMutationVariables>;
export const OfferingDeleteDocument = {"__meta__":{"hash":"549979dd5450f2250d25def0abc24a6108bc18529a8050ecab7597b350b5f5e0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OfferingDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedId"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<OfferingDeleteMutation, OfferingDeleteMutationVariables>;
export const PresetsDocument = {"__meta__":{"hash":"133e8ff24df02aab0653f2916a1a10eb5c7bf874a563dd039198b1ddece91eb5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Presets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offeringId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"withLimits"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"presets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"tier"}},{"kind":"Field","name":{"kind":"Name","value":"gpuCount"}},{"kind":"Field","name":{"kind":"Name","value":"customVramMib"}},{"kind":"Field","name":{"kind":"Name","value":"customCores"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"cpuOnly"}},{"kind":"Field","name":{"kind":"Name","value":"gpuLimits"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"offeringId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offeringId"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"withLimits"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<PresetsQuery, PresetsQueryVariables>;
export const PresetCreateDocument = {"__meta__":{"hash":"617bc33ac8d226c0045ea4d811cb98eb515a8345f9fb37bfea7b1e4f63414f77"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PresetCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PresetCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"presetCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"preset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PresetCreateMutation, PresetCreateMutationVariables>;
export const PresetUpdateDocument = {"__meta__":{"hash":"4a3fc7be0da9a30b452f95526fabbf592be3e3bb2671d7bca20361bc0381886c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PresetUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PresetUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"presetUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"preset"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PresetUpdateMutation, PresetUpdateMutationVariables>;
export const PresetDeleteDocument = {"__meta__":{"hash":"4024d4f4d4c563d6a631797542a315b942ebc0b8a14134090564a325e8ba3686"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PresetDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"presetDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedId"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PresetDeleteMutation, PresetDeleteMutationVariables>;
export const RegistriesDocument = {"__meta__":{"hash":"01936a394a343f3efbfd60c86fd8efdb767200c03378a2de507bea750ca4e061"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Registries"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"registries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RegistriesQuery, RegistriesQueryVariables>;
export const RegistryCreateDocument = {"__meta__":{"hash":"64d986e9a1d8e7138435b3c66deee8ed24df79eb1615a7564fad606d705743cf"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RegistryCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RegistryCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"registryCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"registry"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RegistryCreateMutation, RegistryCreateMutationVariables>;
export const RegistryUpdateDocument = {"__meta__":{"hash":"3d1fe0c0aa367b80a8b439a8c7c3a0a2032d6fe0ba36ad39309a7fdf52998963"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RegistryUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RegistryUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"registryUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"registry"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RegistryUpdateMutation, RegistryUpdateMutationVariables>;
export const RegistryDeleteDocument = {"__meta__":{"hash":"97311e4656b0e581af64807d44059dd2bb40e9b5b97cb3214792743726cd8de8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RegistryDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"registryDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedId"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RegistryDeleteMutation, RegistryDeleteMutationVariables>;
export const ClustersDocument = {"__meta__":{"hash":"bd51767c706c9257687a2044cbda664d45c323188bb45137d247b9e4d0f5cba5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Clusters"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"clusterId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusters"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"placementPolicy"}}]}},{"kind":"Field","name":{"kind":"Name","value":"clusterNodes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"clusterId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"clusterId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"clusterName"}},{"kind":"Field","name":{"kind":"Name","value":"sharingMode"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"freeCpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"freeMemoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"cordoned"}},{"kind":"Field","name":{"kind":"Name","value":"schedulable"}},{"kind":"Field","name":{"kind":"Name","value":"staleResources"}},{"kind":"Field","name":{"kind":"Name","value":"cards"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"uuid"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"migEnabled"}},{"kind":"Field","name":{"kind":"Name","value":"timesliceReplicas"}},{"kind":"Field","name":{"kind":"Name","value":"freeVramMib"}},{"kind":"Field","name":{"kind":"Name","value":"freeCores"}},{"kind":"Field","name":{"kind":"Name","value":"tenants"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionName"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}}]}},{"kind":"Field","name":{"kind":"Name","value":"migInstances"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"profile"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"tenant"}},{"kind":"Field","name":{"kind":"Name","value":"tenantName"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"allocations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionName"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}}]}}]}}]}}]} as unknown as DocumentNode<ClustersQuery, ClustersQueryVariables>;
export const NodeCordonSetDocument = {"__meta__":{"hash":"0c283b08cdde447aa4e667fee7a6d6e86e28bda7c7eea871d7e5c7dacc1ea0eb"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"NodeCordonSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"NodeCordonSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodeCordonSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"cordoned"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<NodeCordonSetMutation, NodeCordonSetMutationVariables>;
export const NodeDrainDocument = {"__meta__":{"hash":"c90ca954bd8bc8eb9a573c8648cb091f9afc012281ae46a2e97bd962b05ad108"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"NodeDrain"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"NodeDrainInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodeDrain"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"drainedSessions"}},{"kind":"Field","name":{"kind":"Name","value":"skippedSessions"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<NodeDrainMutation, NodeDrainMutationVariables>;
export const GpuQueueDocument = {"__meta__":{"hash":"3100b267dc49c4bc4a0a15b68233a2e8b4197cae5680bcdf2644ed1daf76a7a0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GpuQueue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"gpuQueue"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}},{"kind":"Field","name":{"kind":"Name","value":"sessionName"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}},{"kind":"Field","name":{"kind":"Name","value":"priority"}},{"kind":"Field","name":{"kind":"Name","value":"ratioOrCards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusiveCards"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}}]}}]}}]} as unknown as DocumentNode<GpuQueueQuery, GpuQueueQueryVariables>;
export const NodeSharingModeChangeDocument = {"__meta__":{"hash":"2f974f6a0224c8afbf1d1248f1ffb222daaca2476f4cb63602e27c251e13bd55"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"NodeSharingModeChange"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"NodeSharingModeChangeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodeSharingModeChange"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"operation"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<NodeSharingModeChangeMutation, NodeSharingModeChangeMutationVariables>;
export const NodeOperationProgressDocument = {"__meta__":{"hash":"169a656062e9ff54fd6af0e04ec1c5032a0dc8dfaac71fc9765f81491eaef8ef"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"NodeOperationProgress"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodeOperationProgress"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"currentStep"}},{"kind":"Field","name":{"kind":"Name","value":"steps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"step"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}},{"kind":"Field","name":{"kind":"Name","value":"drainedSessions"}},{"kind":"Field","name":{"kind":"Name","value":"removedResources"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}}]}}]}}]} as unknown as DocumentNode<NodeOperationProgressSubscription, NodeOperationProgressSubscriptionVariables>;
export const AccountsDocument = {"__meta__":{"hash":"db44480fa266309ca702d0fa121c713d70d62717bc9265e91b8b8103d16324c0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Accounts"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"groupId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"accounts"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}},{"kind":"Argument","name":{"kind":"Name","value":"groupId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"groupId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AccountFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AccountFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Account"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"held"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"available"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}}]} as unknown as DocumentNode<AccountsQuery, AccountsQueryVariables>;
export const CreditsAllocateDocument = {"__meta__":{"hash":"0bde9c47aaa2b4695607edd5b97da0ecc8f6777ec0af4bee467e4a660dc36c25"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreditsAllocate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreditsAllocateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"creditsAllocate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"transfer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CreditsAllocateMutation, CreditsAllocateMutationVariables>;
export const CreditsTakeBackDocument = {"__meta__":{"hash":"3da0a6c0b795fe644b9ff73cf36fe2a59dbe28e66e0f1cd6477a189743340a18"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreditsTakeBack"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreditsTakeBackInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"creditsTakeBack"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"transfer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CreditsTakeBackMutation, CreditsTakeBackMutationVariables>;
export const CreditsAllocateToGroupMembersDocument = {"__meta__":{"hash":"ed55fc3a340da4fab2cfbb397d2f0bd366262645d5a94ddc4c50594b74f5c02d"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"CreditsAllocateToGroupMembers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreditsAllocateToGroupMembersInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"creditsAllocateToGroupMembers"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"replayed"}},{"kind":"Field","name":{"kind":"Name","value":"transfers"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<CreditsAllocateToGroupMembersMutation, CreditsAllocateToGroupMembersMutationVariables>;
export const RefillSchedulesDocument = {"__meta__":{"hash":"1a3c28ab51ad8643e5d47d4cb53f54f98980e32fbc909310cb66f113f8d5afd7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RefillSchedules"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"source"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"AccountInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"refillSchedules"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"source"},"value":{"kind":"Variable","name":{"kind":"Name","value":"source"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}},{"kind":"Field","name":{"kind":"Name","value":"cadence"}},{"kind":"Field","name":{"kind":"Name","value":"anchorDay"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"memo"}},{"kind":"Field","name":{"kind":"Name","value":"lastPeriodStart"}},{"kind":"Field","name":{"kind":"Name","value":"membersOfGroupId"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"source"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"target"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<RefillSchedulesQuery, RefillSchedulesQueryVariables>;
export const RefillScheduleCreateDocument = {"__meta__":{"hash":"1774d248b43749595cfd071d09ebdbf39b6abdbad0f1c2e242d1bd8fcb155bf0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RefillScheduleCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RefillScheduleCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"refillScheduleCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"refillSchedule"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RefillScheduleCreateMutation, RefillScheduleCreateMutationVariables>;
export const RefillScheduleSetActiveDocument = {"__meta__":{"hash":"ac21a39868362ec7393a7b727e8d9487c851a4d55578a253b36ade8a1af72846"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"RefillScheduleSetActive"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"RefillScheduleSetActiveInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"refillScheduleSetActive"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"refillSchedule"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"active"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<RefillScheduleSetActiveMutation, RefillScheduleSetActiveMutationVariables>;
export const UsageHistoryDocument = {"__meta__":{"hash":"a69e09e644b3a54211d2c8abd84dd737d0450243289c3557bbfa6178c918ab49"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UsageHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"by"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UsageHistoryDimension"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"step"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"usageHistory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}},{"kind":"Argument","name":{"kind":"Name","value":"by"},"value":{"kind":"Variable","name":{"kind":"Name","value":"by"}}},{"kind":"Argument","name":{"kind":"Name","value":"stepSeconds"},"value":{"kind":"Variable","name":{"kind":"Name","value":"step"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"until"}},{"kind":"Field","name":{"kind":"Name","value":"by"}},{"kind":"Field","name":{"kind":"Name","value":"stepSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"series"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"key"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"points"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","name":{"kind":"Name","value":"cardEquivalents"}},{"kind":"Field","name":{"kind":"Name","value":"gpuUtilPercent"}},{"kind":"Field","name":{"kind":"Name","value":"noDataMinutes"}}]}}]}}]}}]}}]} as unknown as DocumentNode<UsageHistoryQuery, UsageHistoryQueryVariables>;
export const IdleCreditsDocument = {"__meta__":{"hash":"3436c81305848c8948167108d0e18eaa624111a879d4c61d8742f4a62e8451a9"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"IdleCredits"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"by"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdleCreditsDimension"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"idleCreditsReport"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}},{"kind":"Argument","name":{"kind":"Name","value":"by"},"value":{"kind":"Variable","name":{"kind":"Name","value":"by"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"belowPercent"}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"idleCharged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"}},{"kind":"Field","name":{"kind":"Name","value":"minutes"}},{"kind":"Field","name":{"kind":"Name","value":"idleMinutes"}},{"kind":"Field","name":{"kind":"Name","value":"noDataMinutes"}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"idleCharged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}}]}}]}}]} as unknown as DocumentNode<IdleCreditsQuery, IdleCreditsQueryVariables>;
export const BackgroundJobsDocument = {"__meta__":{"hash":"17c5529315bb81561d25da08fd1b7290da71b6d349ade61997a83221dab66f45"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"BackgroundJobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"backgroundJobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"periodSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"nextDueAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastOutcome"}},{"kind":"Field","name":{"kind":"Name","value":"lastError"}},{"kind":"Field","name":{"kind":"Name","value":"lastRun"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"periodStart"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}},{"kind":"Field","name":{"kind":"Name","value":"durationSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"attempts"}},{"kind":"Field","name":{"kind":"Name","value":"summary"}},{"kind":"Field","name":{"kind":"Name","value":"counts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"lastSuccess"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"finishedAt"}}]}}]}}]}}]} as unknown as DocumentNode<BackgroundJobsQuery, BackgroundJobsQueryVariables>;
export const OrganizationDocument = {"__meta__":{"hash":"9f81e362a2e5f358fec98f06f64287c0ff0f3c518aedd0d57a409f700f476628"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Organization"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"viewerIsAdmin"}}]}}]}}]}}]} as unknown as DocumentNode<OrganizationQuery, OrganizationQueryVariables>;
export const OrganizationGroupsDocument = {"__meta__":{"hash":"0f40a30c623202b97c415fa60936e3f91147f527c4a561063256ffda90b374d3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrganizationGroups"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"isDefault"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"viewerIsAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"members"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<OrganizationGroupsQuery, OrganizationGroupsQueryVariables>;
export const OrganizationUsersDocument = {"__meta__":{"hash":"142d69fccbafb71d57b47096c9923a1b44de380c76b48c820eb17112dc5ac40b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrganizationUsers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Organization"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"users"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"adminOf"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<OrganizationUsersQuery, OrganizationUsersQueryVariables>;
export const GroupCreateDocument = {"__meta__":{"hash":"02178b7aee562f3dabd519572baf08a46ff687121bca4c6b8d6c3598c1c98a0f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GroupCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GroupCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"groupCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<GroupCreateMutation, GroupCreateMutationVariables>;
export const GroupUpdateDocument = {"__meta__":{"hash":"c1e3c5a657d08f5dbb344461ce354fa14d6bcdf7227dbe4224eddb5b055eb9fe"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GroupUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"GroupUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"groupUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<GroupUpdateMutation, GroupUpdateMutationVariables>;
export const GroupDeleteDocument = {"__meta__":{"hash":"e822067db6934e8040b81d06c3972c7b1ad954699a1be5a265c8d6eacd2bccb0"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"GroupDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"groupDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedId"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<GroupDeleteMutation, GroupDeleteMutationVariables>;
export const UserOrgAdminSetDocument = {"__meta__":{"hash":"a56aa0812e727ff8afff496a0b83f2230e848917a3b44516333f54d521559c60"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UserOrgAdminSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserOrgAdminSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userOrgAdminSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"adminOf"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<UserOrgAdminSetMutation, UserOrgAdminSetMutationVariables>;
export const OrganizationsDocument = {"__meta__":{"hash":"caeb55af3b1dfa85b2f3901b5c12f341c0fa44b857acf81f3d24bc547f074088"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Organizations"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"organizations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"viewerIsAdmin"}}]}}]}}]}}]} as unknown as DocumentNode<OrganizationsQuery, OrganizationsQueryVariables>;
export const OrganizationCreateDocument = {"__meta__":{"hash":"4e5d363553d237c1239ea489ee3e409c15ca7b7b07c214bf6da7c7ae7833c246"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OrganizationCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OrganizationCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"organizationCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<OrganizationCreateMutation, OrganizationCreateMutationVariables>;
export const OrganizationUpdateDocument = {"__meta__":{"hash":"29be17af4b64c599635a512d8ee64b62a85df116491b9252e34c2afa8b95b5be"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"OrganizationUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OrganizationUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"organizationUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<OrganizationUpdateMutation, OrganizationUpdateMutationVariables>;
export const BudgetsDocument = {"__meta__":{"hash":"d9bb3804c55dc5455663fae43bf07ad0bb5531586c7f3e3a68553b4108379962"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Budgets"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ScopeInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"budgets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"period"}},{"kind":"Field","name":{"kind":"Name","value":"alertThresholds"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"limit"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"periodStart"}},{"kind":"Field","name":{"kind":"Name","value":"periodEnd"}},{"kind":"Field","name":{"kind":"Name","value":"spent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"percentUsed"}},{"kind":"Field","name":{"kind":"Name","value":"exceeded"}},{"kind":"Field","name":{"kind":"Name","value":"crossedThresholds"}}]}}]}}]}}]} as unknown as DocumentNode<BudgetsQuery, BudgetsQueryVariables>;
export const BudgetSetDocument = {"__meta__":{"hash":"3c86d0ec76a0066943996be3aa09cd49f325bdabae7e4a0d4ff6ec6ad4ad9ff6"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"BudgetSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"BudgetSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"budgetSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"budget"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<BudgetSetMutation, BudgetSetMutationVariables>;
export const BudgetDeleteDocument = {"__meta__":{"hash":"c36fbef70453cae55adc8b57d6b819208e778e0ac14d261fff94901d37237caf"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"BudgetDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"budgetDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedId"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<BudgetDeleteMutation, BudgetDeleteMutationVariables>;
export const PoliciesDocument = {"__meta__":{"hash":"bd90960516b959d0ab62861df30afd47a5850381410c0c07e193538167ac96c8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Policies"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"policies"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"scope"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"maxConcurrentSessions"}},{"kind":"Field","name":{"kind":"Name","value":"maxGpus"}},{"kind":"Field","name":{"kind":"Name","value":"modelCaps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}}]}},{"kind":"Field","name":{"kind":"Name","value":"maxVramMib"}},{"kind":"Field","name":{"kind":"Name","value":"maxCpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"maxMemoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"storageQuotaMib"}},{"kind":"Field","name":{"kind":"Name","value":"idleTimeoutSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"maxSessionSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"approvalRequired"}},{"kind":"Field","name":{"kind":"Name","value":"defaultPriority"}},{"kind":"Field","name":{"kind":"Name","value":"preemptible"}},{"kind":"Field","name":{"kind":"Name","value":"allowedClusters"}}]}}]}}]}}]} as unknown as DocumentNode<PoliciesQuery, PoliciesQueryVariables>;
export const PolicySetDocument = {"__meta__":{"hash":"2234a52cfd1b8a02bdd45b1a5a570e4b28e9753ecdfa41a6596696f26ef35857"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PolicySet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PolicySetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"policySet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"policy"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PolicySetMutation, PolicySetMutationVariables>;
export const PolicyDeleteDocument = {"__meta__":{"hash":"e972a90733f4ea0f24ded435cc5526a157b0232709d623c817af419d0e0b87ae"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PolicyDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PolicyDeleteInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"policyDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedId"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PolicyDeleteMutation, PolicyDeleteMutationVariables>;
export const EffectivePolicyDocument = {"__meta__":{"hash":"67cb547ca9b388c0a45c2ccaf41d9217851d2f7962b095ceeadaaaa745660abf"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"EffectivePolicy"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"userId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"effectivePolicy"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"userId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"userId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"chain"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"idleTimeoutSeconds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"source"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"maxSessionSeconds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"source"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"defaultPriority"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"source"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"approvalRequired"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"source"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"preemptible"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"source"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"limits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"scope"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"allowedClusters"}}]}}]}}]} as unknown as DocumentNode<EffectivePolicyQuery, EffectivePolicyQueryVariables>;
export const AdminSessionsDocument = {"__meta__":{"hash":"c0c04dd9ceafab4a0b5b1f1044219dce12c474bf7af500a83388a19fd46fc948"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"AdminSessions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"states"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SessionState"}}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"states"},"value":{"kind":"Variable","name":{"kind":"Name","value":"states"}}},{"kind":"Argument","name":{"kind":"Name","value":"organizationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AdminSessionFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdminSessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}}]}}]} as unknown as DocumentNode<AdminSessionsQuery, AdminSessionsQueryVariables>;
export const PendingApprovalsDocument = {"__meta__":{"hash":"0a5377fe694e1ca99fd4e92fe36a7797f5fce09e4dd355ee7cd9656d9000d048"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PendingApprovals"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pendingApprovals"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AdminSessionFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AdminSessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"owner"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}}]}}]} as unknown as DocumentNode<PendingApprovalsQuery, PendingApprovalsQueryVariables>;
export const SessionApproveDocument = {"__meta__":{"hash":"18577b04d46b3c574ca6ba302f158788a23cb8f97db03778443405019cf98a3f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SessionApprove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SessionApproveInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionApprove"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<SessionApproveMutation, SessionApproveMutationVariables>;
export const SessionRejectDocument = {"__meta__":{"hash":"b0ed56bb5432da9821b82e8a5a9db5aee5598bc714caac11d9ee1d37e712dc5a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SessionReject"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SessionRejectInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionReject"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<SessionRejectMutation, SessionRejectMutationVariables>;
export const UsageReportDocument = {"__meta__":{"hash":"f49cc875e499ee3a2a4bb8db49343a51ce0de627979675ac707cf9f5f9a22fbc"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UsageReport"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"scope"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ScopeInput"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"until"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"by"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"UsageDimension"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"interval"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"UsageInterval"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"usageReport"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"scope"},"value":{"kind":"Variable","name":{"kind":"Name","value":"scope"}}},{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}},{"kind":"Argument","name":{"kind":"Name","value":"until"},"value":{"kind":"Variable","name":{"kind":"Name","value":"until"}}},{"kind":"Argument","name":{"kind":"Name","value":"by"},"value":{"kind":"Variable","name":{"kind":"Name","value":"by"}}},{"kind":"Argument","name":{"kind":"Name","value":"interval"},"value":{"kind":"Variable","name":{"kind":"Name","value":"interval"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"since"}},{"kind":"Field","name":{"kind":"Name","value":"until"}},{"kind":"Field","name":{"kind":"Name","value":"by"}},{"kind":"Field","name":{"kind":"Name","value":"interval"}},{"kind":"Field","name":{"kind":"Name","value":"periods"}},{"kind":"Field","name":{"kind":"Name","value":"scope"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"spent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"rows"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"spent"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"series"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}}]}}]}}]}}]}}]} as unknown as DocumentNode<UsageReportQuery, UsageReportQueryVariables>;
export const UsageOrganizationsDocument = {"__meta__":{"hash":"7172399dbfa75484a56aebd4f9955684860f00dac8caf1673d22c6b6b5f95f00"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"UsageOrganizations"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"organizations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"viewerIsAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}},{"kind":"Field","name":{"kind":"Name","value":"users"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"1"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}}]}}]}}]}}]}}]} as unknown as DocumentNode<UsageOrganizationsQuery, UsageOrganizationsQueryVariables>;
export const UserCreateDocument = {"__meta__":{"hash":"e0aae45e550e3978046f1abc1eedb764310207f01448b8aec7603ebc330bdee7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UserCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<UserCreateMutation, UserCreateMutationVariables>;
export const GroupOptionsDocument = {"__meta__":{"hash":"674eaa1b1a331927559cb2db2f7d782a4a74306d0990ff86127b2b5bd6d1685e"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GroupOptions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"isDefault"}}]}}]}}]}}]} as unknown as DocumentNode<GroupOptionsQuery, GroupOptionsQueryVariables>;
export const UserDocument = {"__meta__":{"hash":"caba0fbfb35e499481d045657eee016036143481af3a77f75042516e869529c3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"User"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"User"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"isSuperAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"activeGroup"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"adminOf"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"memberships"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<UserQuery, UserQueryVariables>;
export const UserUpdateDocument = {"__meta__":{"hash":"c6813ef78ba73e53d40d34f1124e3dbaab1449ad6007362bc8fc755b14b439d4"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UserUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<UserUpdateMutation, UserUpdateMutationVariables>;
export const UserPasswordSetDocument = {"__meta__":{"hash":"a306eebb3ef67daed71f8b22281a5be29006d0d3628fb0ebec47cd554daf0287"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UserPasswordSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserPasswordSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userPasswordSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<UserPasswordSetMutation, UserPasswordSetMutationVariables>;
export const UserSuperAdminSetDocument = {"__meta__":{"hash":"dd888bf354a78555f05ae3001c84d3ba86d494875bdb9134f3a325ab60251685"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UserSuperAdminSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UserSuperAdminSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userSuperAdminSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"isSuperAdmin"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<UserSuperAdminSetMutation, UserSuperAdminSetMutationVariables>;
export const MembershipSetDocument = {"__meta__":{"hash":"b70d9e58b7243107706732f0d96bbd8b2a734aef86f8f5f11c2fe702b6311687"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"MembershipSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MembershipSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"membershipSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"membership"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<MembershipSetMutation, MembershipSetMutationVariables>;
export const MembershipRemoveDocument = {"__meta__":{"hash":"04c08e267b1adce441b7dcfd73e35f307bdcce50bef9f48b239ec972a5f16f8c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"MembershipRemove"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"MembershipRemoveInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"membershipRemove"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"membership"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"role"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<MembershipRemoveMutation, MembershipRemoveMutationVariables>;
export const UserDeleteDocument = {"__meta__":{"hash":"675f5c55b238b2e3b68413ce5ad35d8490b7d6d51f132476cd5d75c7a1dea393"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"UserDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<UserDeleteMutation, UserDeleteMutationVariables>;
export const UsersDocument = {"__meta__":{"hash":"13d0b4a8c7acaaf9d9739e4c996761d18dd6a1c97075c7192f6d66e3101de739"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Users"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"users"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"organizationId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"organizationId"}}},{"kind":"Argument","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"isActive"}},{"kind":"Field","name":{"kind":"Name","value":"isSuperAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"memberships"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<UsersQuery, UsersQueryVariables>;
export const ViewerStateDocument = {"__meta__":{"hash":"228ce4ab88d9c165f90a03615b3a984a1b90228d55e0ec8a250c2abdab667819"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ViewerState"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"viewer"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"userId"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"isSuperAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"readOnly"}}]}}]}}]} as unknown as DocumentNode<ViewerStateSubscription, ViewerStateSubscriptionVariables>;
export const LogoutDocument = {"__meta__":{"hash":"d67ba01f3c1bdd2adab4e14f5375597f95e3a7d1d1688493dbf828d2d13d6bb3"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Logout"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"logout"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"ok"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<LogoutMutation, LogoutMutationVariables>;
export const MeDocument = {"__meta__":{"hash":"7d26301d0bc939779d2981ca7c3f5eba49ac4abe3b45105c48ab95405efc9b78"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"me"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}},{"kind":"Field","name":{"kind":"Name","value":"email"}},{"kind":"Field","name":{"kind":"Name","value":"isSuperAdmin"}},{"kind":"Field","name":{"kind":"Name","value":"activeGroup"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"memberships"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"role"}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"adminOf"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"slug"}}]}}]}}]}}]} as unknown as DocumentNode<MeQuery, MeQueryVariables>;
export const LoginDocument = {"__meta__":{"hash":"4e31abd60660f64243005072981854e2558f01349f2710d440290b462c09ee33"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"Login"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"LoginInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"login"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<LoginMutation, LoginMutationVariables>;
export const ScopeGroupsDocument = {"__meta__":{"hash":"a9e5cf0562d5bdd85259d67c05855920ab5fdac98c48a9b2d425152e33690198"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ScopeGroups"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"groups"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ScopeGroupsQuery, ScopeGroupsQueryVariables>;
export const ScopeUsersDocument = {"__meta__":{"hash":"1c22d62493e8887905570f89dd465176695c3b7b2ffea5dd364befb43bf64a9c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ScopeUsers"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"search"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"users"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"search"},"value":{"kind":"Variable","name":{"kind":"Name","value":"search"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}}]}}]}}]} as unknown as DocumentNode<ScopeUsersQuery, ScopeUsersQueryVariables>;
export const CapacityTickDocument = {"__meta__":{"hash":"59b876472f7b1d7430d2ec28a427fa8a539dea81e69495bf430619de7791f2ef"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CapacityTick"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"capacityChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"models"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"model"}}]}}]}}]}}]} as unknown as DocumentNode<CapacityTickSubscription, CapacityTickSubscriptionVariables>;
export const AdminSessionsTickDocument = {"__meta__":{"hash":"f1f522ba22cb7de469e32745a2f046ae2a692ab29a2cbdc4f275030ee993b989"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"AdminSessionsTick"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"adminSessionsChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"pendingApprovals"}},{"kind":"Field","name":{"kind":"Name","value":"sessionIds"}}]}}]}}]} as unknown as DocumentNode<AdminSessionsTickSubscription, AdminSessionsTickSubscriptionVariables>;
export const OrganizationOptionsDocument = {"__meta__":{"hash":"d832b3dcbf7357a92286ac21bc85f72e821a3f0cb83c40c7c877f46e7d7d04df"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OrganizationOptions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"organizations"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"viewerIsAdmin"}}]}}]}}]}}]} as unknown as DocumentNode<OrganizationOptionsQuery, OrganizationOptionsQueryVariables>;
export const RegistryOptionsDocument = {"__meta__":{"hash":"b5ed2c3f4e0a3745a59e4777f3e8dca4196e7d2f1f466765eda614a53ba31edf"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"RegistryOptions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"registries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"url"}}]}}]}}]}}]} as unknown as DocumentNode<RegistryOptionsQuery, RegistryOptionsQueryVariables>;
export const OfferingOptionsDocument = {"__meta__":{"hash":"924d805997f901b96187426756e32dc99f05b16d44769ebef4f7f667200d3835"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"OfferingOptions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offerings"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"vendor"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"minCuda"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyRate"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}}]}}]}}]} as unknown as DocumentNode<OfferingOptionsQuery, OfferingOptionsQueryVariables>;
export const MyWalletDocument = {"__meta__":{"hash":"bfe10ff7a486c9cc0b4fec2405f6bdb86558dfc89761ba0c61dda7932a41818c"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MyWallet"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"myWallet"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"holds"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"memo"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"reserved"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MyWalletQuery, MyWalletQueryVariables>;
export const MyWalletLiveDocument = {"__meta__":{"hash":"dfaa4c671b700aca02286bfb1573ccc79e8b30e012338d99b7ca6ed7c96ef07b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"MyWalletLive"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"myWallet"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"AccountFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"AccountFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Account"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"ownerId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"balance"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"held"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"available"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}}]} as unknown as DocumentNode<MyWalletLiveSubscription, MyWalletLiveSubscriptionVariables>;
export const LedgerHistoryDocument = {"__meta__":{"hash":"39f249ae957ca2c1c16d59b5bee2b32a5e5a4fb43b4698d47b12b5be3ece7d82"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"LedgerHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"account"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"AccountInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"kind"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"TransferKind"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"since"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"until"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"DateTime"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"ledgerHistory"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"account"},"value":{"kind":"Variable","name":{"kind":"Name","value":"account"}}},{"kind":"Argument","name":{"kind":"Name","value":"kind"},"value":{"kind":"Variable","name":{"kind":"Name","value":"kind"}}},{"kind":"Argument","name":{"kind":"Name","value":"since"},"value":{"kind":"Variable","name":{"kind":"Name","value":"since"}}},{"kind":"Argument","name":{"kind":"Name","value":"until"},"value":{"kind":"Variable","name":{"kind":"Name","value":"until"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"seq"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"memo"}},{"kind":"Field","name":{"kind":"Name","value":"amount"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"source"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"destination"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"accountId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<LedgerHistoryQuery, LedgerHistoryQueryVariables>;
export const CapacityLiveDocument = {"__meta__":{"hash":"c23b3c9a32ec21f0a0ff7743064018136b5e9757a49034694ff358f32859f991"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"CapacityLive"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"capacityChanged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"byResource"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"resource"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"physical"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"used"}},{"kind":"Field","name":{"kind":"Name","value":"available"}}]}},{"kind":"Field","name":{"kind":"Name","value":"logical"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"used"}},{"kind":"Field","name":{"kind":"Name","value":"available"}}]}},{"kind":"Field","name":{"kind":"Name","value":"usedCardEquivalents"}}]}},{"kind":"Field","name":{"kind":"Name","value":"models"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"physical"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"used"}},{"kind":"Field","name":{"kind":"Name","value":"available"}}]}},{"kind":"Field","name":{"kind":"Name","value":"logical"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"used"}},{"kind":"Field","name":{"kind":"Name","value":"available"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CapacityLiveSubscription, CapacityLiveSubscriptionVariables>;
export const ActiveGroupSetDocument = {"__meta__":{"hash":"20c643694424ada54761ddd2acec26bffdc4442624f0afcf1d92c15fcd29d491"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ActiveGroupSet"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ActiveGroupSetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"activeGroupSet"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"user"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"activeGroup"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ActiveGroupSetMutation, ActiveGroupSetMutationVariables>;
export const NotificationsDocument = {"__meta__":{"hash":"9084446db567ced431e206a89aa35b6a87ac47e7694ea1a0789a16bd64c47f76"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Notifications"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"notifications"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"readAt"}},{"kind":"Field","name":{"kind":"Name","value":"sessionId"}}]}}]}}]}}]} as unknown as DocumentNode<NotificationsQuery, NotificationsQueryVariables>;
export const NotificationsLiveDocument = {"__meta__":{"hash":"0d0fdc4cea1dd0fa07f82fb0335fe2ed63acbf686fcb5f45aa504b6318595814"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"NotificationsLive"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"notifications"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}}]}}]} as unknown as DocumentNode<NotificationsLiveSubscription, NotificationsLiveSubscriptionVariables>;
export const NotificationsMarkReadDocument = {"__meta__":{"hash":"5f6d1a46afc32eb8ff8efba3ea1197e289e844c0215d17ada0dde531208b7a49"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"NotificationsMarkRead"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"NotificationsMarkReadInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"notificationsMarkRead"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"marked"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<NotificationsMarkReadMutation, NotificationsMarkReadMutationVariables>;
export const ImagesDocument = {"__meta__":{"hash":"adecc78f39ee125ede3619feaec38f7a285e96a0a4556cdb990b742273056b2f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Images"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"images"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"cudaVersion"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"registry"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"organization"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ImagesQuery, ImagesQueryVariables>;
export const ImageCreateDocument = {"__meta__":{"hash":"bed5dd6e8d8897e42cc3c7c0317ca3b60b6f9568fe8c3868fd4d3baa6a2548f8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ImageCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImageCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"imageCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"image"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ImageCreateMutation, ImageCreateMutationVariables>;
export const ImageUpdateDocument = {"__meta__":{"hash":"7c60c39639172e4b57d8e51cac4464100fa151a4d69cdc62501005cfaa3f229a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ImageUpdate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ImageUpdateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"imageUpdate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"image"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"cudaVersion"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ImageUpdateMutation, ImageUpdateMutationVariables>;
export const ImageDeleteDocument = {"__meta__":{"hash":"22f6c4c20691dc48955362584443761e9b573b23352195f6099478506ee3f2e5"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ImageDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"imageDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedId"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ImageDeleteMutation, ImageDeleteMutationVariables>;
export const JobChoicesDocument = {"__meta__":{"hash":"7fbf63367d7f9c9a5938c0aad1f2bafab42b1b39081ec8a63b92defb12dbc72f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"JobChoices"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offerings"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"presets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"tier"}},{"kind":"Field","name":{"kind":"Name","value":"gpuCount"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"images"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}}]}}]}}]}}]} as unknown as DocumentNode<JobChoicesQuery, JobChoicesQueryVariables>;
export const MyJobsDocument = {"__meta__":{"hash":"ca75142f1c525767081e49d3507a6b135be49ebf6edcb3917368f7020abce0eb"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MyJobs"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"mySessions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"exitCode"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}}]}}]}}]}}]}}]} as unknown as DocumentNode<MyJobsQuery, MyJobsQueryVariables>;
export const JobDetailDocument = {"__meta__":{"hash":"f524c9b06a5c4f95b8f22f8879b92764c5dc0c271cdb027f7ab237e1c48c0d8a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"JobDetail"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"exitCode"}},{"kind":"Field","name":{"kind":"Name","value":"command"}},{"kind":"Field","name":{"kind":"Name","value":"args"}},{"kind":"Field","name":{"kind":"Name","value":"backoffLimit"}},{"kind":"Field","name":{"kind":"Name","value":"logTail"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"lines"},"value":{"kind":"IntValue","value":"20"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"lines"}},{"kind":"Field","name":{"kind":"Name","value":"live"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]}}]}}]} as unknown as DocumentNode<JobDetailQuery, JobDetailQueryVariables>;
export const GroupCapsDocument = {"__meta__":{"hash":"bb0dac599a1229499993a19ef8a28b27045c459dc94efc14941368e910cb9597"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GroupCaps"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"groupId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"effectivePolicy"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"groupId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"groupId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"limits"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"value"}},{"kind":"Field","name":{"kind":"Name","value":"used"}},{"kind":"Field","name":{"kind":"Name","value":"remaining"}},{"kind":"Field","name":{"kind":"Name","value":"scope"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]}}]} as unknown as DocumentNode<GroupCapsQuery, GroupCapsQueryVariables>;
export const GpuAvailabilityDocument = {"__meta__":{"hash":"ec4df5c70c8cbd387d8e628edcce951485910786356567e83901aa6c9bdff9b8"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"GpuAvailability"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"capacity"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"models"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"physical"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"total"}},{"kind":"Field","name":{"kind":"Name","value":"used"}},{"kind":"Field","name":{"kind":"Name","value":"available"}}]}}]}}]}}]}}]} as unknown as DocumentNode<GpuAvailabilityQuery, GpuAvailabilityQueryVariables>;
export const NewSessionChoicesDocument = {"__meta__":{"hash":"c323522cd33bb4ec912e22a9ef2b514c3e9912185f2552af182d1724f2760c88"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"NewSessionChoices"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offeringId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"withOffering"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"presets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"tier"}},{"kind":"Field","name":{"kind":"Name","value":"gpuCount"}},{"kind":"Field","name":{"kind":"Name","value":"cpuOnly"}},{"kind":"Field","name":{"kind":"Name","value":"gpuLimits"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"offeringId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offeringId"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"withOffering"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCostRange"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"offeringId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offeringId"}}}],"directives":[{"kind":"Directive","name":{"kind":"Name","value":"include"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"if"},"value":{"kind":"Variable","name":{"kind":"Name","value":"withOffering"}}}]}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"low"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}}]}},{"kind":"Field","name":{"kind":"Name","value":"high"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"images"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"reference"}},{"kind":"Field","name":{"kind":"Name","value":"cudaVersion"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"volumes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"sizeMib"}},{"kind":"Field","name":{"kind":"Name","value":"myMountMode"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"templates"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"imageId"}},{"kind":"Field","name":{"kind":"Name","value":"presetId"}},{"kind":"Field","name":{"kind":"Name","value":"offeringId"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"env"}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"instanceBundles"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"model"}},{"kind":"Field","name":{"kind":"Name","value":"gpus"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"}}]}}]}}]} as unknown as DocumentNode<NewSessionChoicesQuery, NewSessionChoicesQueryVariables>;
export const CudaCheckDocument = {"__meta__":{"hash":"c3a563b1a1ef38784fe35405712691da735fa674c801b07ef40c6a9b7dc75ec1"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"CudaCheck"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"imageId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"offeringId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"imageId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Image"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"cudaCompatibility"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"offeringId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"offeringId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"compatible"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]}}]}}]} as unknown as DocumentNode<CudaCheckQuery, CudaCheckQueryVariables>;
export const TemplateSaveDocument = {"__meta__":{"hash":"8e6bfdfa89eaf0c3938c19b3ec63ff91c86003850734afc39085e5163594be85"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TemplateSave"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TemplateCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"templateCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"template"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<TemplateSaveMutation, TemplateSaveMutationVariables>;
export const MySessionsDocument = {"__meta__":{"hash":"d41a5ad2cc7d4d7075b64741d392d6f73ffc5ed422cd8f13c168a8fb7ccb5585"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"MySessions"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"mySessions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}}]} as unknown as DocumentNode<MySessionsQuery, MySessionsQueryVariables>;
export const MySessionsLiveDocument = {"__meta__":{"hash":"ea7284c006ff0070dcf6a9e5f272c3438c04d7e5fffe9b86c04c7e146230c8db"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"MySessionsLive"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"mySessions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}}]} as unknown as DocumentNode<MySessionsLiveSubscription, MySessionsLiveSubscriptionVariables>;
export const SessionStatusDocument = {"__meta__":{"hash":"052a7f0be4f3821f5b5c879a8d2d2d5882200364d730fb9316fabff5fae8003f"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SessionStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionStatus"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}}]} as unknown as DocumentNode<SessionStatusSubscription, SessionStatusSubscriptionVariables>;
export const SessionChargedDocument = {"__meta__":{"hash":"c0afc52a2390e75fa56b9f5adcc1e32447de1d1c5a63fc21f92fad637c939903"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"SessionCharged"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"node"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}}]}}]}}]} as unknown as DocumentNode<SessionChargedQuery, SessionChargedQueryVariables>;
export const SessionUsageLiveDocument = {"__meta__":{"hash":"62444b103eb26ec5085a27efe689684b7ada6429784e81bf8cb5d9214ef1bc18"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"SessionUsageLive"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"ID"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"sessionUsage"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"sessionId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"sessionId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"gpuUtilPercent"}},{"kind":"Field","name":{"kind":"Name","value":"gpuMemoryMib"}}]}}]}}]} as unknown as DocumentNode<SessionUsageLiveSubscription, SessionUsageLiveSubscriptionVariables>;
export const SessionPauseDocument = {"__meta__":{"hash":"bb56191a0f45dcf239c6e836333faa495140d030248a098a8785d89b40c20d51"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SessionPause"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionPause"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}}]} as unknown as DocumentNode<SessionPauseMutation, SessionPauseMutationVariables>;
export const SessionResumeDocument = {"__meta__":{"hash":"9625803ffcef8547fa9c068ab28a81460d93eadc3888b2aa0bc5cd2577645130"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SessionResume"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionResume"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}}]} as unknown as DocumentNode<SessionResumeMutation, SessionResumeMutationVariables>;
export const SessionStopDocument = {"__meta__":{"hash":"bda42a0d87cdea96cbf6c2c71cbc2d51631177d93569bdb719af09f423469865"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SessionStop"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionStop"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}}]} as unknown as DocumentNode<SessionStopMutation, SessionStopMutationVariables>;
export const SessionExtendDocument = {"__meta__":{"hash":"a17dc9c214bc63c6b1ea8b9a15f07b6a5fadf1d64b05206d78a1792c929afc90"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SessionExtend"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SessionExtendInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionExtend"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"FragmentSpread","name":{"kind":"Name","value":"SessionFields"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"SessionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Session"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonCode"}},{"kind":"Field","name":{"kind":"Name","value":"stateReasonParams"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"imageReference"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"diskGib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"expiry"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"startedAt"}},{"kind":"Field","name":{"kind":"Name","value":"remainingSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"expiryWarning"}},{"kind":"Field","name":{"kind":"Name","value":"runningSeconds"}},{"kind":"Field","name":{"kind":"Name","value":"costSoFar"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"charged"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}},{"kind":"Field","name":{"kind":"Name","value":"gpu"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offeringName"}},{"kind":"Field","name":{"kind":"Name","value":"placedModel"}},{"kind":"Field","name":{"kind":"Name","value":"vramMib"}},{"kind":"Field","name":{"kind":"Name","value":"cores"}},{"kind":"Field","name":{"kind":"Name","value":"cards"}},{"kind":"Field","name":{"kind":"Name","value":"exclusive"}},{"kind":"Field","name":{"kind":"Name","value":"shared"}},{"kind":"Field","name":{"kind":"Name","value":"ratio"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"hourlyCost"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"micro"}},{"kind":"Field","name":{"kind":"Name","value":"credits"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"endpoints"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"vscode"}},{"kind":"Field","name":{"kind":"Name","value":"jupyterlab"}},{"kind":"Field","name":{"kind":"Name","value":"terminal"}},{"kind":"Field","name":{"kind":"Name","value":"ssh"}}]}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"volumeName"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}},{"kind":"Field","name":{"kind":"Name","value":"group"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"templateName"}},{"kind":"Field","name":{"kind":"Name","value":"approver"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"displayName"}}]}},{"kind":"Field","name":{"kind":"Name","value":"placement"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"clusterId"}},{"kind":"Field","name":{"kind":"Name","value":"nodeId"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"cardUuids"}},{"kind":"Field","name":{"kind":"Name","value":"migInstanceId"}}]}},{"kind":"Field","name":{"kind":"Name","value":"queuePosition"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"offering"}},{"kind":"Field","name":{"kind":"Name","value":"position"}},{"kind":"Field","name":{"kind":"Name","value":"length"}}]}}]}}]} as unknown as DocumentNode<SessionExtendMutation, SessionExtendMutationVariables>;
export const SessionCreateDocument = {"__meta__":{"hash":"68027594788e9957ee7627e70f144a26901b6c8c5372df7c69e04a031cb88188"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"SessionCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"SessionCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"sessionCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"session"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"state"}},{"kind":"Field","name":{"kind":"Name","value":"stateReason"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<SessionCreateMutation, SessionCreateMutationVariables>;
export const TemplatesDocument = {"__meta__":{"hash":"afda02f598ac069650a639930d6b0dc8c542f3ef55eb8c0c5ae842c9f3d9c531"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Templates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"templates"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"groupId"}},{"kind":"Field","name":{"kind":"Name","value":"imageId"}},{"kind":"Field","name":{"kind":"Name","value":"presetId"}},{"kind":"Field","name":{"kind":"Name","value":"offeringId"}},{"kind":"Field","name":{"kind":"Name","value":"cpuMillicores"}},{"kind":"Field","name":{"kind":"Name","value":"memoryMib"}},{"kind":"Field","name":{"kind":"Name","value":"shmMib"}},{"kind":"Field","name":{"kind":"Name","value":"env"}},{"kind":"Field","name":{"kind":"Name","value":"mounts"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeId"}},{"kind":"Field","name":{"kind":"Name","value":"mountPath"}},{"kind":"Field","name":{"kind":"Name","value":"mode"}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"images"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"presets"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"100"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]}}]} as unknown as DocumentNode<TemplatesQuery, TemplatesQueryVariables>;
export const TemplateCreateDocument = {"__meta__":{"hash":"1855a1a4e1f81259d4a99c24d021a4227d0e8024b844583c708d5075d6bfb811"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TemplateCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"TemplateCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"templateCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"template"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<TemplateCreateMutation, TemplateCreateMutationVariables>;
export const TemplateDeleteDocument = {"__meta__":{"hash":"6deaa79d88cf22f7505cfc52d279f2f80a35e7d9934f1969b062f6bef4fd6753"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"TemplateDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"templateDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedId"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<TemplateDeleteMutation, TemplateDeleteMutationVariables>;
export const PersonalAccessTokensDocument = {"__meta__":{"hash":"dab4649ab7418e558140c84a12ea7591b7e1596072255e7c8acaea30ec87b5d2"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"PersonalAccessTokens"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"personalAccessTokens"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"tokenPrefix"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"expiresAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"active"}}]}}]}}]}}]} as unknown as DocumentNode<PersonalAccessTokensQuery, PersonalAccessTokensQueryVariables>;
export const PersonalAccessTokenCreateDocument = {"__meta__":{"hash":"e921eaba750c757f380d39651cfb5795be3f77c126f76965f57e5fe81dc0ea9b"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PersonalAccessTokenCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"PersonalAccessTokenCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"personalAccessTokenCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"token"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PersonalAccessTokenCreateMutation, PersonalAccessTokenCreateMutationVariables>;
export const PersonalAccessTokenRevokeDocument = {"__meta__":{"hash":"a1c58ec918a7e2c8bcf8c5eb489fb576a462851fb5da3ef4ff59e8c0938d3a5a"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"PersonalAccessTokenRevoke"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"personalAccessTokenRevoke"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"token"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"active"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<PersonalAccessTokenRevokeMutation, PersonalAccessTokenRevokeMutationVariables>;
export const VolumesDocument = {"__meta__":{"hash":"d2f9c1af317e5fbf25c94400900bc1e9235b042419070b367c1558a2e3c97ce7"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"Volumes"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"first"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"after"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumes"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"Variable","name":{"kind":"Name","value":"first"}}},{"kind":"Argument","name":{"kind":"Name","value":"after"},"value":{"kind":"Variable","name":{"kind":"Name","value":"after"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"totalCount"}},{"kind":"Field","name":{"kind":"Name","value":"pageInfo"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"hasNextPage"}},{"kind":"Field","name":{"kind":"Name","value":"endCursor"}}]}},{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"scope"}},{"kind":"Field","name":{"kind":"Name","value":"storageClass"}},{"kind":"Field","name":{"kind":"Name","value":"sizeMib"}},{"kind":"Field","name":{"kind":"Name","value":"memberMode"}},{"kind":"Field","name":{"kind":"Name","value":"myMountMode"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"groupId"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"storageClasses"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"isDefault"}}]}}]}}]} as unknown as DocumentNode<VolumesQuery, VolumesQueryVariables>;
export const VolumeCreateDocument = {"__meta__":{"hash":"282248f064516a92754516d2702e8d85f5101cb271a9ba36fd1ed2419de47188"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"VolumeCreate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"VolumeCreateInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeCreate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volume"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<VolumeCreateMutation, VolumeCreateMutationVariables>;
export const VolumeDeleteDocument = {"__meta__":{"hash":"4b59b87ec19340f017aac52d936864fb60f5d7c0bedeb6e035b7e2aee50b3052"},"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"VolumeDelete"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"IdInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"volumeDelete"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"deletedId"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"params"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<VolumeDeleteMutation, VolumeDeleteMutationVariables>;