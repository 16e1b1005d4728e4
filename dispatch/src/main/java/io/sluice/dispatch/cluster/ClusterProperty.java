package io.sluice.dispatch.cluster;

import static io.sluice.transport.PropertyValues.duration;

/**
 * The {@code sluice.cluster.*} system properties {@link ClusterContext} reads, each with its default
 * and meaning: the list the generated property reference (docs/reference/properties.md) is made from.
 */
public enum ClusterProperty {
    HEARTBEAT_INTERVAL(ClusterContext.HEARTBEAT_INTERVAL_PROP_NAME, duration(ClusterContext.HEARTBEAT_INTERVAL_DEFAULT_NS),
            "How often CNs and the coordinator send each other heartbeats."),
    SUSPECT_TIMEOUT(ClusterContext.SUSPECT_TIMEOUT_PROP_NAME, duration(ClusterContext.SUSPECT_TIMEOUT_DEFAULT_NS),
            "Silence after which the coordinator calls a CN suspect (still a member) and probes whether its process"
                    + " still exists (a killed CN's host answers that its doorbell port is closed: dead at once)."),
    DEAD_TIMEOUT(ClusterContext.DEAD_TIMEOUT_PROP_NAME, duration(ClusterContext.DEAD_TIMEOUT_DEFAULT_NS),
            "Silence after which a CN is dead: it leaves the membership and fails its queries; a CN that long"
                    + " without hearing its coordinator drops its queries and registers again."),
    DEAD_TIMEOUT_MAX(ClusterContext.DEAD_TIMEOUT_MAX_PROP_NAME, duration(ClusterContext.DEAD_TIMEOUT_MAX_DEFAULT_NS),
            "The longest silence a CN whose heartbeats came with long gaps (pauses, a loaded machine) is allowed: its"
                    + " dead timeout is 4 times its longest recent gap, at least the dead timeout and at most this."),
    CONNECT_TIMEOUT(ClusterContext.CONNECT_TIMEOUT_PROP_NAME, duration(ClusterContext.CONNECT_TIMEOUT_DEFAULT_NS),
            "How long a client or CN waits for anything to receive at the coordinator's address before it says nothing"
                    + " does (a client then fails; a CN says so and keeps trying)."),
    PREPARE_TIMEOUT(ClusterContext.PREPARE_TIMEOUT_PROP_NAME, duration(ClusterContext.PREPARE_TIMEOUT_DEFAULT_NS),
            "How long the coordinator waits for every CN of a query to compile it and open its receivers."),
    CLIENT_TIMEOUT(ClusterContext.CLIENT_TIMEOUT_PROP_NAME, duration(ClusterContext.CLIENT_TIMEOUT_DEFAULT_NS),
            "How long a client waits without hearing from its coordinator before it gives up."),
    REGISTER_INTERVAL(ClusterContext.REGISTER_INTERVAL_PROP_NAME, duration(ClusterContext.REGISTER_INTERVAL_DEFAULT_NS),
            "How often a CN that is not a member asks the coordinator to take it in."),
    MAX_QUERIES(ClusterContext.MAX_QUERIES_PROP_NAME, Integer.toString(ClusterContext.MAX_QUERIES_DEFAULT),
            "Queries the coordinator runs at once; more wait in line."),
    QUEUE_TIMEOUT(ClusterContext.QUEUE_TIMEOUT_PROP_NAME, duration(ClusterContext.QUEUE_TIMEOUT_DEFAULT_NS),
            "How long a query waits in line for a place before it fails."),
    MAX_QUEUED(ClusterContext.MAX_QUEUED_PROP_NAME, Integer.toString(ClusterContext.MAX_QUEUED_DEFAULT),
            "Queries that may wait in line; one more is refused at once."),
    CACHE_AFFINITY(ClusterContext.CACHE_AFFINITY_PROP_NAME, Boolean.toString(ClusterContext.CACHE_AFFINITY_DEFAULT),
            "Whether the coordinator ships what each CN's block cache holds with each query, so that a scan no"
                    + " colocation pins reads each block on a CN caching it while no CN reads more than its fair share"
                    + " plus a tenth (set on the coordinator; false: round-robin).");

    private final String key;
    private final String defaultValue;
    private final String meaning;

    ClusterProperty(final String key, final String defaultValue, final String meaning) {
        this.key = key;
        this.defaultValue = defaultValue;
        this.meaning = meaning;
    }

    /** The system property's name. */
    public String key() {
        return key;
    }

    /** The value used when the property is not set, written as one would set it. */
    public String defaultValue() {
        return defaultValue;
    }

    /** What the property sets. */
    public String meaning() {
        return meaning;
    }
}
