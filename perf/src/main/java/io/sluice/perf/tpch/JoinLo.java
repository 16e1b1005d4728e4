package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.plan.Plan;
import java.util.List;

/** Workload {@code join_lo}: lineitem joined with orders on the order key (both stored in that order). */
public final class JoinLo implements Query {
    static final String SQL = """
            select count(*), sum(o_totalprice)
            from lineitem join orders on l_orderkey = o_orderkey""";

    @Override
    public String name() {
        return "join_lo";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("lineitem", "orders");
    }

    @Override
    public Plan plan() {
        return Plan.scan("lineitem", "l_orderkey")
                .join(JoinType.INNER, Plan.scan("orders", "o_orderkey", "o_totalprice"),
                        List.of("l_orderkey"), List.of("o_orderkey"))
                .aggregate(Plan.noKeys(), Plan.count("count_star()"), Plan.sum(col("o_totalprice"), "sum(o_totalprice)"));
    }
}
