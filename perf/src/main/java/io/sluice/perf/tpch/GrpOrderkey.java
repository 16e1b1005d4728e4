package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.lit;
import static io.sluice.engine.expr.Expr.mul;
import static io.sluice.engine.expr.Expr.sub;

import io.sluice.engine.plan.Plan;
import java.util.List;

/** Workload {@code grp_orderkey}: a group-by with one group per order, then a global aggregate over the groups. */
public final class GrpOrderkey implements Query {
    static final String SQL = """
            select count(*), sum(s) from (
              select l_orderkey, sum(l_extendedprice * (1 - l_discount)) s
              from lineitem group by l_orderkey)""";

    @Override
    public String name() {
        return "grp_orderkey";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("lineitem");
    }

    @Override
    public Plan plan() {
        return Plan.scan("lineitem", "l_orderkey", "l_extendedprice", "l_discount")
                .aggregate(Plan.groupBy("l_orderkey"),
                        Plan.sum(mul(col("l_extendedprice"), sub(lit(1), col("l_discount"))), "s"))
                .aggregate(Plan.noKeys(), Plan.count("count_star()"), Plan.sum(col("s"), "sum(s)"));
    }
}
