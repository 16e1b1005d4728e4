package io.sluice.perf.tpch;

import static io.sluice.engine.expr.Expr.col;
import static io.sluice.engine.expr.Expr.like;
import static io.sluice.engine.expr.Expr.not;

import io.sluice.engine.exec.JoinType;
import io.sluice.engine.exec.SortKey;
import io.sluice.engine.plan.Plan;
import java.util.List;

/** TPC-H Q13, customer distribution (WORD1 special, WORD2 requests): a left outer join and COUNT(column). */
public final class Q13 implements Query {
    static final String SQL = TpchSql.text(13);

    @Override
    public String name() {
        return "q13";
    }

    @Override
    public String sql() {
        return SQL;
    }

    @Override
    public List<String> tables() {
        return List.of("customer", "orders");
    }

    @Override
    public Plan plan() {
        final Plan orders = Plan.scan("orders", "o_orderkey", "o_custkey", "o_comment")
                .filter(not(like(col("o_comment"), "%special%requests%")))
                .select("o_orderkey", "o_custkey");
        return Plan.scan("customer", "c_custkey")
                .join(JoinType.LEFT, orders, List.of("c_custkey"), List.of("o_custkey"))
                .aggregate(Plan.groupBy("c_custkey"), Plan.count(col("o_orderkey"), "c_count"))
                .aggregate(Plan.groupBy("c_count"), Plan.count("custdist"))
                .orderBy(SortKey.desc("custdist"), SortKey.desc("c_count"));
    }
}
