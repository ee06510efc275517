/**
 * Every limit of the service, as one frozen table of named defaults with units in the names.
 * Each is enforced at the edge where the input arrives, with a message that names the limit.
 */
// The grpc-free module: worker threads load these limits, and must not pay for loading grpc-js.
import { WIRE_LIMITS } from '@svc/client/wire-constants';

export { formatBytes } from '@svc/client/wire-constants';

export const LIMITS = Object.freeze({
  /** Largest schema text accepted; client and server share it (`WIRE_LIMITS`). */
  maxSchemaBytes: WIRE_LIMITS.maxSchemaBytes,
  /** Largest gRPC message received; above maxSchemaBytes so the schema limit answers first. */
  maxGrpcMessageBytes: WIRE_LIMITS.maxGrpcMessageBytes,
  /** Deepest nesting of arrays and objects in a schema document. */
  maxSchemaDepth: 256,
  /**
   * YAML aliases in one document, the `yaml` package's own guard against alias bombs (each alias
   * counts the aliases inside what it names). Real descriptions reuse a shared response or schema
   * hundreds of times: at 100 one reused 120 times was refused.
   */
  maxYamlAliases: 10_000,
  /**
   * Characters of a YAML document once its aliases and merge keys are expanded (as JSON would write
   * it), counted on the parsed tree before anything is built: what bounds an alias bomb, whose text
   * is small and whose expansion is not (a merge key copies what it names). Twice maxSchemaBytes.
   */
  maxYamlExpandedChars: 2 * WIRE_LIMITS.maxSchemaBytes,
  /** Operations (method + path) in one schema. */
  maxOperations: 20_000,
  /**
   * Members of one `properties` (or `patternProperties`) object in a schema, checked at registration
   * before anything is compiled: AJV took about 0.5 s for 1,000 and threw at 5,000 (DESIGN rule 3).
   * GitHub's REST description peaks at 105.
   */
  maxSchemaObjectProperties: 1_000,
  /** Longest chain of `$ref` → `$ref`; registration refuses a longer or circular chain, as it refuses a dangling reference. */
  maxRefChainHops: 32,
  /**
   * Environments besides dev, staging and prod; creating one more (CreateEnvironment, or a first use
   * on a server that allows unknown environments) is refused. Each check of an environment reads the
   * list, and 20,000 of them made every create take 0.2–0.4 s and held other callers up to 0.6 s.
   */
  maxEnvironments: 1_000,
  /**
   * Characters of a gRPC status message (an error's text); a longer one is cut, saying so. It travels
   * in an HTTP/2 trailer, and clients take 8 KiB of headers by default: a 195 KB refusal reached none.
   */
  maxStatusMessageChars: 4_096,
  /**
   * Metrics: values of a label that callers choose by registering (schema ids, owners, teams) with
   * series of their own, per label; the others share `__other__`. Each schema id costs about 20 lines
   * per HTTP method a scrape renders on the main thread.
   */
  metricsMaxLabelValues: 250,
  /** Longest schema id, consumer id or other identifier. */
  maxIdLength: 128,
  /** Longest free-text metadata field (owner, team, contact e-mail, versions). */
  maxMetadataLength: 256,
  /** Concurrent calls (HTTP/2 streams) per client connection; grpc-js clients queue calls beyond it. */
  maxConcurrentStreamsPerConnection: 256,
  /**
   * Bytes of request messages that have begun to arrive but are not whole yet, all connections
   * together (grpc-js holds a message in memory until its last byte); a stream whose message would
   * go past it is reset, and the client sees RESOURCE_EXHAUSTED (src/main/partial-messages.ts). A
   * compressed message counts its decompressed bytes while grpc-js inflates it (decompressed-messages.ts).
   */
  receiveMaxPartialBytes: 256 * 1024 * 1024, // 256 MiB
  /** The same on one connection: one client cannot take the whole server's share. */
  receiveMaxPartialBytesPerConnection: 96 * 1024 * 1024, // 96 MiB: two of the largest messages
  /** Messages longer than this are large, and may fill only receiveLargeMessageShare of receiveMaxPartialBytes. */
  receiveLargeMessageBytes: 1024 * 1024, // 1 MiB
  /** What large messages may use of receiveMaxPartialBytes; the rest stays for ordinary calls. */
  receiveLargeMessageShare: 0.75,
  /** Longest a request message may take to arrive, from its first byte to its last. */
  messageReceiveMaxMs: 60_000, // 1 minute: 48 MiB at under 1 MB/s
  /**
   * Longest a call may wait, after its request headers, for the first byte of its first request
   * message: a stream that sends headers and then nothing is a call in flight, which keeps its
   * connection from ever being idle.
   */
  firstMessageStartMaxMs: 30_000, // 30 s
  /**
   * Open connections from one client address (trusted proxies excepted); one past it is reset at
   * once. Each holds a file descriptor for up to maxConnectionIdleMs without a call, so one host
   * could otherwise take every descriptor the process has, and no other client could connect.
   * Room for the clients that share an address: a Kubernetes node's pods reaching svc through the
   * node's address (110 pods a node by default), a CI host's parallel jobs. A server under a lower
   * open-file limit takes a quarter of that limit instead (src/main/config.ts).
   */
  maxConnectionsPerPeer: 256,
  /**
   * Calls in flight (HTTP/2 streams) from one client address, all its connections together (trusted
   * proxies excepted); at it, the address's connections may open no new stream until it is down to
   * three quarters of it (src/main/grpc-listener.ts), and a stream that still arrives is reset
   * (RESOURCE_EXHAUSTED). maxConnectionsPerPeer
   * times maxConcurrentStreamsPerConnection let one host hold 65,536 calls that sent only their
   * headers: the server grew from 172 to 789 MB (about 9 KB a call) and other callers' validations
   * stalled 2.4–5.0 s while they opened and when firstMessageStartMaxMs reset them all at once.
   * Room for the clients that share an address (a Kubernetes node's 110 pods, 18 calls each).
   */
  maxCallsPerPeer: 2_048,
  /**
   * Calls one connection may have reset for maxCallsPerPeer before the connection is closed (GOAWAY
   * ENHANCE_YOUR_CALM), as Node closes one whose client opens streams past the advertised limit 100
   * times. A stream the server resets frees its slot at once: without it, a connection kept opening
   * streams that were built and reset (25,000 in 6 s), and other callers' validations took up to 1.1 s.
   */
  maxRefusedCallsPerConnection: 100,
  /**
   * Bytes of answers written but not yet taken by their clients (HTTP/2 flow control), all
   * connections together; past it the streams holding the most are reset (src/main/unsent-answers.ts).
   */
  answerMaxUnsentBytes: 512 * 1024 * 1024, // 512 MiB
  /** The same for one connection's streams. */
  answerMaxUnsentBytesPerConnection: 128 * 1024 * 1024, // 128 MiB: two of the largest answers, and more
  /** Longest an answer's unsent bytes may wait without its client taking any. */
  answerMaxStallMs: 60_000, // 1 minute
  /**
   * At the end of a graceful stop's grace, how long the UNAVAILABLE statuses of the calls still in
   * flight may take to reach their clients before the connections are cut (a client that reads
   * nothing never takes a status queued behind its unread answers).
   */
  shutdownStatusFlushMs: 1_000, // 1 s
  /** A connection with no call in flight for this long is closed with GOAWAY (clients reconnect on demand). */
  maxConnectionIdleMs: 5 * 60_000, // 5 minutes
  /** The server pings a connection that has been quiet this long, to find peers that vanished mid-call. */
  keepaliveTimeMs: 10 * 60_000, // 10 minutes
  /** A keepalive ping unanswered for this long closes the connection. */
  keepaliveTimeoutMs: 20_000, // 20 seconds
  /** ListSchemas page size when none is given (spec default). */
  defaultPageSize: 100,
  /** Largest ListSchemas page size; larger requests are clamped to it. */
  maxPageSize: 1000,
  /** CLI: largest interaction, request or response file read by `svc validate` (bodies inside are capped by validationMaxBodyBytes). */
  cliMaxInputFileBytes: 32 * 1024 * 1024, // 32 MiB
  /**
   * Audit lines written for refused API keys per minute, all callers together; the rest are counted
   * (`svc_auth_failure_total`) and summed into the next line's `suppressed`.
   */
  authFailureAuditLinesPerMinute: 60,
  /**
   * API keys shorter than this are accepted (existing setups keep working) but named in a warning at
   * start and on every reload: a short key can be guessed.
   */
  apiKeyWarnBelowChars: 16,
  /** "call failed" lines per minute for UNAUTHENTICATED and PERMISSION_DENIED calls; the rest summed into the next line's `suppressed`. */
  refusedCallLogLinesPerMinute: 60,
  /**
   * "call failed" lines per minute for each other status (CANCELLED, INVALID_ARGUMENT, …); the rest
   * summed into the next line's `suppressed`. Any client can fail calls at will (a stream opened and
   * reset at once costs it one frame each), and a budget per status keeps one flood from hiding another
   * status's lines.
   */
  failedCallLogLinesPerMinute: 300,
  /**
   * RecordInteractions: "recorded interactions dropped over a limit" lines per minute, all calls
   * together; the rest summed into the next line's `suppressed`. One line a call: 3,000 calls of one
   * such interaction each wrote 3,000 lines in 1.8 s.
   */
  droppedInteractionLogLinesPerMinute: 60,
  /**
   * "recorded usage could not be written" lines per minute; the rest summed into the next line's
   * `suppressed`. Each RecordInteractions call writes what it kept: while the store refused writes,
   * 500 calls wrote 500 error lines, each with its stack.
   */
  usageWriteFailedLogLinesPerMinute: 60,
  /** Lines grpc-js writes of its own per minute (a client can cause some at will); the rest summed into the next line's `suppressed`. */
  grpcJsLogLinesPerMinute: 60,
  /** Validation: messages listed per outcome; the last slot then says how many more were found. */
  validationMaxErrors: 100,
  /** Validation: largest request or response body parsed (bytes of UTF-8). */
  validationMaxBodyBytes: 10 * 1024 * 1024, // 10 MiB
  /** Validation: deepest nesting of arrays and objects in a body (levels), checked before parsing. */
  validationMaxBodyDepth: 256,
  /**
   * Recording: characters of a recorded request or response body at most. The server reads a recorded
   * body on its main thread (redaction, field paths, shape), about 70 ms per MiB: a larger one is not
   * kept, and the answer names this limit. Samples keep 64 KiB at most anyway (maxSampleBytes).
   */
  recordingMaxBodyChars: 256 * 1024, // 256 Ki characters
  /**
   * Recording: characters of a recorded request's or response's header names and values together at
   * most; an interaction with more is not kept, and the answer names this limit. A sample is written
   * out whole on the main thread before its size is known: four interactions with 20 MB header values
   * held another client's calls 150–265 ms each. Servers take 16–64 KiB of headers.
   */
  recordingMaxHeaderChars: 256 * 1024, // 256 Ki characters
  /**
   * Recording: UTF-8 bytes of one `read_fields` path at most, checked before it is decoded; an
   * interaction with a longer one is not kept, and the answer names this limit. Field paths are kept
   * with every usage row and read back by each CanIDeploy: 500 paths of 60,000 characters in ten
   * interactions held every call 1.4–1.8 s on each deploy check of that schema afterwards.
   */
  recordingMaxReadFieldBytes: 1_024,
  /**
   * Validation: parts of one multipart body, and fields of one urlencoded body, read at most; a body
   * with more is `valid=false` (`maxFormParts`). Here with the other validation limits (it was
   * form-body.ts's own for multipart only): a 6.9 MB urlencoded body of a million fields took 1.3 s
   * and about 300 MiB of a validation worker.
   */
  validationMaxFormParts: 1_000,
  /** Validation: header entries of one request or response (Node's HTTP server keeps 2,000 at most); more fail the call. */
  validationMaxHeaderEntries: 1_000,
  /**
   * Validation: bytes of one request's or response's header names and values, as they arrive; more
   * fail the call. HTTP servers take 8–64 KiB of headers. Without it, a 40 MB header value parsed as
   * an array parameter held a worker 2–5 s and left the server 700 MB larger a minute later.
   */
  validationMaxHeaderBytes: 1024 * 1024, // 1 MiB
  /** Validation: longest request path, query string included (characters). */
  validationMaxPathChars: 8 * 1024,
  /**
   * Validation: schema objects transformed and compiled at once for one schema and the `$ref`s it
   * reaches. GitHub's REST API needs at most 989; Microsoft Graph's largest bodies (653 subtypes
   * under one discriminator) need up to 20,000, the first of them 1.2 s of CPU to compile, all
   * 11,422 of its operations 13 s. A compile runs on one lane while the others serve.
   */
  validationMaxCompileSchemaNodes: 20_000,
  /**
   * Characters of the encoded schema closure up to which a compiled validator is shared between
   * contracts with the same closure (shared-validators.ts). Larger closures are compiled per
   * contract: hashing them would cost each compile more than sharing saves.
   */
  validationSharedClosureMaxChars: 64 * 1024,
  /** Validation: characters of a value quoted in a message; longer values are cut with "…". */
  validationMaxQuotedValueChars: 120,
  /**
   * Validation: characters of a JSON pointer quoted in a message. A longer one keeps its first and last
   * half around "…" and gives its length: pointers are built from the body's own keys, and 100 levels
   * of 1,000-character keys made each of 100 messages repeat a 100 KB pointer (a 9.9 MB result).
   */
  validationMaxPointerChars: 200,
  /**
   * Validation: UTF-8 bytes of the messages listed in one outcome; later violations are only counted
   * (the last entry says how many). 100 messages of typical length take a few KiB, and a result stays
   * far below maxGrpcMessageBytes whatever the schema's enum lists and patterns hold.
   */
  validationMaxErrorBytes: 64 * 1024, // 64 KiB
  /** Fixtures: deepest nesting of a generated value (levels); a schema that needs more is cut off there. */
  fixtureMaxValueDepth: 32,
  /** Fixtures: times one `$ref` may reappear inside itself before recursion is cut to required content only. */
  fixtureMaxRefReentries: 1,
  /** Fixtures: generated values (all levels) after which optional properties are left out (keeps big APIs small). */
  fixtureOptionalValueBudget: 2_000,
  /** Fixtures: candidate strings tried per `pattern` before giving up on it. */
  fixturePatternAttempts: 24,
  /** Fixtures: repetitions drawn for an open quantifier (`*`, `+`, `{n,}`) in a `pattern`. */
  fixturePatternMaxRepeat: 8,
  /** Fixtures: attempts at a value that must differ from others (`uniqueItems`) or avoid a `not` schema. */
  fixtureRetryAttempts: 8,
  /**
   * Compare: units of work (schema pairs compared, schema parts read) in one comparison before it
   * fails with LIMIT_EXCEEDED rather than answer half-compared. GitHub Enterprise 3.17 → 3.18 takes
   * about 31,000 (a step costs about 7 µs there, so the limit bounds a comparison to seconds).
   */
  compareMaxSteps: 1_000_000,
  /**
   * Compare: breaking changes one comparison may list; one with more fails with LIMIT_EXCEEDED (the
   * versions are not compatible). Each costs the main thread about 4 µs and the answer about 240 bytes.
   */
  compareMaxChanges: 10_000,
  /**
   * Compare: characters of the changes one comparison lists (paths, descriptions, old and new values,
   * all changes together); more fail with LIMIT_EXCEEDED. compareMaxChanges alone let changes of long
   * paths or values through: 8,000 changes of one 10,000-character path (a 36 KB document) listed
   * 161 M characters. 8 Mi is about three times 10,000 changes of ordinary size, and its answer
   * (at most 3 bytes a character in UTF-8) fits maxGrpcMessageBytes.
   */
  compareMaxChangeChars: 8 * 1024 * 1024, // 8 Mi characters
  /** Compare: longest a comparison may run on its thread before it is stopped (LIMIT_EXCEEDED). */
  compareMaxMs: 60_000, // 1 min
  /** Intake: longest reading one registered text may take (parse, convert, check) before it is stopped. */
  intakeMaxMs: 30_000, // 30 s
  /** Fixtures: largest minLength a generated string is made for; a schema asking more is refused. */
  fixtureMaxStringLength: 1024 * 1024, // 1 Mi characters
  /** Fixtures: largest minItems or minProperties a generated array or object is made for. */
  fixtureMaxCollectionSize: 10_000,
  /** Fixtures: largest generated body (characters of JSON text), or request or response with its headers; a larger one is refused, not sent. */
  fixtureMaxBodyBytes: 4 * 1024 * 1024, // 4 MiB
  /**
   * Fixtures: work of one fixture's generation, all its bodies, parameters and headers together, as
   * the JSON characters each value adds (its key, a string's text); values tried and dropped count too. Sizes that
   * multiply (minItems 1,000 of minItems 1,000 of minLength 1,000; 100 required headers of minLength
   * 1,000,000) each passed their own limits, built hundreds of MB for 10 s until fixtureMaxMs stopped
   * them, and 100 MB of headers reached the main thread. The largest real fixtures take a few thousand.
   */
  fixtureMaxGeneratedChars: 8 * 1024 * 1024, // 8 Mi: two bodies of fixtureMaxBodyBytes
  /** Fixtures: longest one fixture may take before it is stopped. */
  fixtureMaxMs: 10_000, // 10 s
  /** Document tasks: longest the operations of one version may take to list (parsing a 32 MiB document takes about 0.5 s). */
  operationsMaxMs: 10_000, // 10 s
  /** Document tasks: longest describing one large recorded interaction may take (two 256 Ki-character bodies take about 15 ms). */
  observeMaxMs: 10_000, // 10 s
  /**
   * Recording: interactions whose bodies together are longer than this are described (parsed,
   * redacted, walked, written out again) on a document-task thread, not the main thread. Below it
   * the hand-over would cost more than the work (about 23 ns a character on the main thread).
   */
  recordingInlineBodyChars: 16 * 1024, // 16 Ki characters
  /**
   * Recording: messages of one RecordInteractions stream read and not yet handled; at it the stream
   * stops reading until they are. They queue behind one that waits (its version's first operation
   * listing, on a busy document-task thread): without a bound, one stream held 706 MiB while a
   * listing waited 5 s.
   */
  recordingStreamMaxQueued: 64,
  /**
   * Recording: bytes of those messages (as received) at most; at it the stream stops reading too. A
   * message may be maxGrpcMessageBytes (a long schema id is read whole), 64 of them 3 GiB.
   */
  recordingStreamMaxQueuedBytes: 16 * 1024 * 1024, // 16 MiB
  /**
   * Document tasks (intake, operation listings, comparisons, fixtures, large recorded interactions) waiting for a thread at most; a task beyond it is
   * refused with RESOURCE_EXHAUSTED (retry shortly) instead of holding its document in memory.
   */
  documentTaskMaxQueued: 64,
  /**
   * Document tasks of one caller (API key, else client host) waiting for a thread at most; beyond it
   * that caller is refused with RESOURCE_EXHAUSTED while others still queue (documentTaskMaxQueued
   * holds them all together).
   */
  documentTaskMaxQueuedPerCaller: 16,
  /** Document tasks (intake, operation listings, comparisons, fixtures, large recorded interactions): old-generation heap of one task thread. */
  documentTaskMaxHeapBytes: 1024 * 1024 * 1024, // 1 GiB
  /** Document tasks: JSON size of the parsed documents a task thread keeps for the next task. */
  documentTaskParsedBytes: 64 * 1024 * 1024, // 64 MiB
  /**
   * Compare: deepest nesting of schemas followed (properties, items, alternatives, references), in
   * levels. Intake accepts documents nested up to maxSchemaDepth (256) JSON levels; the call stack
   * holds about 1,000.
   */
  compareMaxDepth: 300,
  /** Compare: comparison results kept by the server per pair of content hashes (entries, least recently used out). */
  compareCacheEntries: 64,
  /**
   * Compare: characters of the changes those kept results list, all together (breakingChangeChars);
   * the least recently used go first. Counted by entries alone, 64 results near
   * compareMaxChangeChars, from 65 versions of a 26 KB document registered and compared in 29 s,
   * held 640 MB of the main thread's heap. Ordinary results are a few KB; 10,000 ordinary changes about 2.4 M.
   */
  compareCacheMaxChars: 32 * 1024 * 1024, // 32 Mi characters
  /**
   * CanIDeploy: breaking changes listed per consumer (relevant_changes, then unreached_changes); the
   * rest are counted in omitted_changes. Every consumer of an endpoint with thousands of changes
   * listed them all: 800 consumers of 5,000 changes built 4 million wire objects on the main thread
   * and ended the server out of heap after a 30 s stall. The verdict counts every change.
   */
  canIDeployChangesPerConsumer: 100,
  /** CanIDeploy: breaking changes listed over all consumers together (as canIDeployChangesPerConsumer), so the answer stays far below the gRPC message limit. */
  canIDeployListedChanges: 10_000,
  /**
   * GetCoverage: operations and documented statuses one answer lists at most, together; a version
   * with more is refused before anything is built (statuses seen only in traffic add at most one per
   * usage row). Each costs the main thread about 2 µs to build and encode: 2,000 operations of 400
   * statuses (a 20 MB document) held every caller 2.6-4.0 s a call and took the server to 1.7 GB.
   */
  coverageMaxEntries: 30_000,
  /** Consumers: endpoints one consumer registration may list. */
  consumerMaxEndpoints: 1_000,
  /** Consumers: used response fields listed per endpoint. */
  consumerMaxUsedFields: 1_000,
  /** Consumers: used fields of one registration, all endpoints together (repeats counted), checked before anything is merged. */
  consumerMaxUsedFieldsTotal: 100_000,
  /**
   * Consumers: characters of the used fields and endpoint paths of one registration, all endpoints
   * together (paths as stored: the schema's own templates). Each field may be maxMetadataLength long:
   * three registrations of 100,000 fields of 250 characters (25 MB each) held every call 200–385 ms,
   * and made ListConsumers of the schema too large to send. Paths were not counted: 30 registrations
   * of 1,000 endpoints with 4,000-character templates made a ListConsumers answer of 120 MB (the main
   * thread held 1.3 s, then grpc-js refused to send it) and a CanIDeploy that held it 0.9 s.
   */
  consumerMaxUsedFieldChars: 2 * 1024 * 1024, // 2 Mi characters
  /**
   * ListConsumers: what the registrations of one answer weigh in a listing at most (storage.ts
   * listedChars: characters of used fields and endpoint paths, and a weight per endpoint and field,
   * what they cost to build and send; the gRPC message limit is 48 MiB); a larger listing is
   * refused, naming this limit, instead of holding the main thread while it is built.
   */
  consumerListMaxUsedFieldChars: 16 * 1024 * 1024, // 16 Mi characters
  /**
   * Consumers: what all of one schema's registrations weigh in a listing together (storage.ts
   * listedChars), every environment; a registration that would pass it is refused. CanIDeploy and ListConsumers read a
   * schema's registrations whole: hundreds of registrations at consumerMaxUsedFieldChars would have
   * each call read hundreds of millions of characters.
   */
  consumerSchemaMaxUsedFieldChars: 32 * 1024 * 1024, // 32 Mi characters
  /**
   * Consumers: registrations of one schema, every environment together (a consumer id has one per
   * schema and environment); a new one past it is refused. Without it, registrations that list no
   * fields were unbounded: at 60,000 of them one ListConsumers held the main thread 549 ms and one
   * CanIDeploy 718 ms (30,000: 287 and 346 ms), so 5,000 keep each under about 60 ms.
   */
  consumerSchemaMaxRegistrations: 5_000,
  /**
   * Main thread: bytes of version documents (their JSON text, 2 bytes a character) the schema
   * registry keeps for worker threads, least recently used out, beside its 64 entries. Holds several
   * documents of maxSchemaBytes; a cap on entries alone let ten 27 MB versions grow the process by 1.3 GB.
   * The main thread never parses them: intake, operation listings, comparisons and fixtures run on
   * document-task threads.
   */
  registryDocumentCacheMaxBytes: 256 * 1024 * 1024, // 256 MiB
  /**
   * Main thread: memory the schema registry's lists of operations may hold (method, path,
   * operationId, summary, response keys per operation; about 3 MB for 16,000 operations), least
   * recently used out: what ListEndpoints and RegisterConsumer read instead of the parsed document.
   */
  registryOperationIndexMaxBytes: 64 * 1024 * 1024, // 64 MiB
  /** Validation workers: compiled contracts kept per worker (spec: schema cache capacity, MaxSchemas). */
  contractCacheMaxEntries: 1_000,
  /** Validation workers: a compiled contract unused this long is dropped (spec: schema cache time-to-live, SchemaTTL). */
  contractCacheTtlMs: 24 * 60 * 60_000, // 24 hours
  /** Validation workers: heap the compiled contracts kept per worker may cost (contractCostPerDocumentByte per document byte, contractCostPerSchemaNode per schema object compiled; least recently used out). */
  contractCacheMaxBytesPerWorker: 512 * 1024 * 1024, // 512 MiB
  /**
   * Validation workers: old-generation heap of one worker thread, the contract cache's budget and
   * room for a batch. A batch that needs more stops its thread; its calls go again one at a time and
   * the one that needs it is refused (without a limit of its own, a worker reaching V8's heap limit
   * ends the whole process). A 45-byte body under `anyOf` branches nested through `$ref` (each level
   * doubling the work, and the errors AJV keeps) took one worker to 5.7 GB in 10 s. At 1.5 GiB, V8
   * collected so often during the noisy-neighbour suite's slow compiles that the victim's p99 rose
   * from 16–20 ms to 22–85 ms; at 2 GiB it stayed at 20–21 ms.
   */
  validationWorkerMaxHeapBytes: 2 * 1024 * 1024 * 1024, // 2 GiB
  /**
   * Bytes of worker heap counted per byte of a contract's document JSON in the cache budget: the
   * parsed document, router, AJV instance and compiled validators (a 3 MiB document cost about 21 MB).
   */
  contractCostPerDocumentByte: 8,
  /**
   * Bytes of worker heap counted per schema object a cached contract has compiled, on top of its
   * document: a schema object compiles to far more than its JSON text (1.0–1.5 KB each measured,
   * whatever its size), so compact documents with their operations compiled cost 40–50× their text
   * (20 operations of 1,000 properties: 22–32 MB of heap, counted 4–7 MB by the text alone).
   */
  contractCostPerSchemaNode: 1536,
  /**
   * Validation: request bytes queued for or held by the worker pool, all callers together; a call
   * beyond it fails at once with RESOURCE_EXHAUSTED instead of growing memory without bound.
   */
  validationMaxQueuedBytes: 256 * 1024 * 1024, // 256 MiB
  /**
   * Validation: longest one batch may run in its worker (a first call's compile included) before the
   * worker is replaced by a new thread. Its calls go again one by one, and a call that overruns alone
   * fails with LIMIT_EXCEEDED. Keywords that cost far more than the body's size (an enum of 4,000
   * objects against 60,000 items: 4.6 s for 840 KB) otherwise held a worker until they ended.
   */
  validationMaxMs: 10_000, // 10 s
  /**
   * GetSchema: characters of registered documents being answered at once, all callers together, held
   * from before the answer is encoded until its call ends (sent, failed or cancelled); a call beyond it
   * fails at once with RESOURCE_EXHAUSTED. Unbounded, 200 concurrent GetSchema calls of a 20 MB
   * document took the server from 157 MiB to 4.3 GiB and stalled every other caller 9–13 s, and
   * clients that never read (a zero HTTP/2 window) kept 8–13 GiB of answers. Four of the largest
   * documents (maxSchemaBytes-sized) at once; one answer larger than the whole limit is still sent
   * when nothing else is in flight.
   */
  schemaAnswerMaxBytesInFlight: 128 * 1024 * 1024, // 128 MiB
  /**
   * GetSchema reads of a version's text from the store at once; more wait their turn on the main
   * thread. A read must finish before its size counts against schemaAnswerMaxBytesInFlight, and one
   * caller's 300 concurrent reads of a 4 MB version took every connection of a PostgreSQL pool (10)
   * from other callers' first document reads.
   */
  schemaContentReadsInFlight: 4,
  /**
   * Messages of RecordInteractions and ValidateInteractionStream streams handled per turn of the main
   * thread's event loop, all such streams together; past it they stop reading until the next turn, so
   * other calls are read in between (src/main/stream-turns.ts).
   */
  streamMessagesPerTurn: 64,
  /**
   * Bytes of those messages handled per turn, all such streams together (RecordInteractions counts
   * the characters of its bodies): a recorded 256 Ki-character body costs the main thread about
   * 19 ms, so a turn holds about one of the largest. The first message of a turn is always handled.
   */
  streamBytesPerTurn: 256 * 1024, // 256 KiB
  /**
   * CanIDeploy replay: consumers of one check whose samples are read and replayed at once (the others
   * wait). Each holds up to 200 samples of up to 64 KiB (12.5 MiB) while replayed; reading every
   * consumer's at once held 3–4 GB and the main thread for seconds.
   */
  replayConsumersAtOnce: 4,
  /**
   * CanIDeploy replay: samples of one consumer sent to the validation workers at once, so one check
   * has at most 64 in the pool (about 4 MiB); sending all at once met validationMaxQueuedBytes.
   */
  replaySamplesAtOnce: 16,
  /** ValidateInteractionStream: interactions of one stream read but not yet answered; reading pauses at this many. */
  validationStreamMaxInFlight: 512,
  /** ValidateInteractionStream: request bytes of one stream read but not yet answered; reading pauses above this. */
  validationStreamMaxInFlightBytes: 64 * 1024 * 1024, // 64 MiB
  /**
   * ValidateInteractionStream: bytes of one stream's results written but not yet taken by HTTP/2 (its
   * client reads too slowly, or never); reading pauses above this. Counting results alone let a client
   * that never read hold 200 results of 10 MB (1.6 GB); typical results (about 200 bytes) reach
   * validationStreamMaxInFlight first.
   */
  validationStreamMaxUnsentBytes: 1024 * 1024, // 1 MiB
});

export type Limits = typeof LIMITS;
