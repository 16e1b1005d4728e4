-- Words Calcite's default grammar reserves are aliases and names, as in DuckDB.
select n_nationkey as value, n_name as running from nation order by value;
select sum(ps_supplycost * ps_availqty) as value from partsupp;
select ps_partkey, sum(ps_supplycost * ps_availqty) as value
from partsupp, supplier, nation
where ps_suppkey = s_suppkey and s_nationkey = n_nationkey and n_name = 'GERMANY'
group by ps_partkey
having sum(ps_supplycost * ps_availqty) > 8000000
order by value desc, ps_partkey;
select r_regionkey as one, r_name as year from region order by one;
select t.value from (select n_nationkey as value from nation) as t order by t.value;
select count(*) as count from region;
select n_nationkey AS Nation_Key, count(*) as N from NATION group by N_NATIONKEY order by Nation_Key limit 3;
