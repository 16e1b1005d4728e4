-- Set operations and FULL OUTER JOIN over
--   t(id int64, k int64, i int32, d decimal(12,2), dt date, s string)
--   u(id int64, k int64, d decimal(12,2), s string)
-- Set operations treat NULLs as equal (one NULL row survives UNION, INTERSECT and EXCEPT), unlike
-- join keys, where NULL matches nothing. Every statement is compared with DuckDB's answer.

-- UNION ALL keeps every row, duplicates and NULLs included.
select k from t union all select k from u;
select k, s from t union all select k, s from u;
select id, d from t where id < 5 union all select id, d from u where id < 5;
select k from t union all select k from t union all select k from u;
select k, i from t union all select id, i from t where i < 0;
select i from t union all select k from u;
select d from t union all select d * 2 as d from u;
select s from t where k is null union all select s from u where k is null;
select k, count(*) as n from (select k from t union all select k from u) as x group by k;

-- UNION removes duplicates; NULL is one row.
select k from t union select k from u;
select k, s from t union select k, s from u;
select s from t union select s from u;
select dt from t union select dt from t;
select k from t where k is null union select k from u where k is null;
select i from t union select k from u;

-- INTERSECT: the rows in both; a NULL row is in both when both have one.
select k from t intersect select k from u;
select s from t intersect select s from u;
select k, d from t intersect select k, d from u;
select k from t where id < 20 intersect select k from t where id >= 20;
select k from u intersect select k from t intersect select k from u where id > 3;

-- EXCEPT: the rows of the first input not in the second; NULL is removed only by a NULL.
select k from t except select k from u;
select k from u except select k from t;
select s from t except select s from u;
select k from u where k is not null except select k from t;
select k, s from u except select k, s from t;
select k from t except select k from u except select k from t where id > 30;

-- Nested set operations and set operations in subqueries.
select k from (select k from t union all select k from u) as x where k > 2;
select k from t union (select k from u except select k from t);
select k from t intersect (select k from u union select i from t);
select id, k from t where k in (select k from u union all select k from u);
select id from t where k in (select k from u where k is not null except select k from t where k = 1);
select id from t where k not in (select k from u where k is not null except select k from t where k = 1);
select id from t where k not in (select k from u union select k from t where k = 4);
select id from t where k in (select k from u intersect select k from t where id > 5);
select count(*) as n, count(k) as nk from (select k from t union select k from u) as x;
select x.k, count(*) as n from (select k from t except select k from u) as x join t on x.k = t.k group by x.k;

-- ORDER BY and LIMIT over a set operation.
select k from t union select k from u order by k nulls first;
select k, s from t union all select k, s from u order by k nulls last, s nulls last;
select id from t union all select id from u order by id desc limit 7;
select k from t except select k from u order by k;
select k from (select k from t union all select k from u order by k nulls last limit 10) as x;

-- FULL OUTER JOIN: every row of both sides, padded with NULLs where nothing matched; NULL keys never match.
select t.id as tid, u.id as uid from t full outer join u on t.k = u.k;
select t.id as tid, t.k as tk, u.id as uid, u.k as uk from t full join u on t.k = u.k;
select t.id as tid, u.id as uid from t full outer join u on t.k = u.k and t.d < u.d;
select t.id as tid, u.id as uid from t full outer join u on t.s = u.s;
select t.id as tid, u.id as uid from t full outer join u on t.k = u.k and t.s = u.s;
select t.id as tid, u.id as uid, t.d as td, u.d as ud from t full outer join u on t.id = u.id and t.k <> u.k;
select coalesce(t.k, u.k) as k, count(*) as n from t full outer join u on t.k = u.k group by coalesce(t.k, u.k);
select t.id as tid, u.id as uid from t full outer join u on t.k = u.k where u.id is null or t.id is null;
select t.id as tid, u.id as uid from t full outer join u on t.k = u.k order by tid nulls first, uid nulls first limit 12;

-- RIGHT JOIN: every row of the right side.
select t.id as tid, u.id as uid from t right join u on t.k = u.k;
select t.id as tid, u.id as uid from t right join u on t.k = u.k and t.d > u.d;

-- Still refused.
-- error: INTERSECT ALL is not supported
select k from t intersect all select k from u;
-- error: EXCEPT ALL is not supported
select k from t except all select k from u;
-- error: the function ntile is not supported
select id, ntile(2) over (order by id) as r from t;
