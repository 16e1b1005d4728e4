package io.sluice.perf.cli;

import io.sluice.dispatch.cluster.Session;
import io.sluice.dispatch.control.ControlMessage.MemberStatus;
import io.sluice.transport.Endpoint;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code sluice cluster status}: every CN as the coordinator sees it. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = {"Lists every CN of a cluster as its coordinator sees it: name, endpoint, cores, state (alive,"
            + " suspect after about 1 s without a heartbeat, dead after about 3 s, when it leaves), time since its"
            + " last heartbeat, queries running and peak resident memory."},
        footer = {"", "Example:", "  sluice cluster status --coordinator 127.0.0.1:7400 --json"})
public final class ClusterStatusCommand extends CliCommand {
    @Option(names = "--coordinator", required = true, paramLabel = "HOST:PORT", description = "The cluster's coordinator.")
    String coordinator;

    @Option(names = "--json", description = "Print {\"coordinator\", \"members\": [{\"name\", \"endpoint\", \"cores\","
            + " \"state\", \"since_heartbeat_ms\", \"queries\", \"rss_bytes\"}]} instead of a table.")
    boolean json;

    @Override
    int execute(final PrintWriter out, final PrintWriter err) {
        final Endpoint endpoint = Endpoint.parse(coordinator, false);
        final List<MemberStatus> members;
        try (Session session = Session.connect(endpoint)) {
            members = session.status();
        }
        if (json) {
            final JsonWriter w = new JsonWriter().beginObject().name("coordinator").value(endpoint.toString())
                    .name("members").beginArray();
            for (final MemberStatus m : members) {
                w.beginObject().name("name").value(m.name()).name("endpoint").value(m.endpoint())
                        .name("cores").value(m.cores()).name("state").value(m.state().cliName())
                        .name("since_heartbeat_ms").value(m.sinceHeardMillis()).name("queries").value(m.activeQueries())
                        .name("rss_bytes").value(m.rssBytes()).endObject();
            }
            out.println(w.endArray().endObject());
            return 0;
        }
        out.printf(Locale.ROOT, "%-20s %-24s %5s %-8s %10s %7s %9s%n", "name", "endpoint", "cores", "state",
                "heartbeat", "running", "rss");
        for (final MemberStatus m : members) {
            out.printf(Locale.ROOT, "%-20s %-24s %5d %-8s %7d ms %7d %9s%n", m.name(), m.endpoint(), m.cores(),
                    m.state().cliName(), m.sinceHeardMillis(), m.activeQueries(),
                    m.rssBytes() < 0 ? "-" : Sizes.mib(m.rssBytes()));
        }
        out.println(members.size() + " CN" + (members.size() == 1 ? "" : "s") + " in the cluster of " + endpoint);
        return 0;
    }
}
