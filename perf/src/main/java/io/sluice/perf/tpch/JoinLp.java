package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.plan.Plan;
import java.util.List;

/** Workload {@code join_lp}: lineitem joined with part on the part key (lineitem is not stored in that order). */
public final class JoinLp implements Query {
    static final String SQL = """
            select count(*), sum(p_retailprice)
            from lineitem join part on l_partkey = p_partkey""";

    @Override
    public String name() {
        return "join_lp";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("lineitem", "part");
    }

    @Override
    public Plan plan() {
        return Plan.scan("lineitem", "l_partkey")
                .join(JoinType.INNER, Plan.scan("part", "p_partkey", "p_retailprice"),
                        List.of("l_partkey"), List.of("p_partkey"))
                .aggregate(Plan.noKeys(), Plan.count("count_star()"), Plan.sum(col("p_retailprice"), "sum(p_retailprice)"));
    }
}
