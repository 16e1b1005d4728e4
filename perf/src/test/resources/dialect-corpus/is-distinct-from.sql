-- IS [NOT] DISTINCT FROM: NULL is not distinct from NULL, and the result is never NULL (TPC-DS Q41).
select n_nationkey,
       case when nullif(n_regionkey, 1) is not distinct from nullif(n_regionkey, 3) then 1 else 0 end as same,
       case when nullif(n_regionkey, 1) is distinct from nullif(n_nationkey, 1) then 1 else 0 end as differ
from nation order by n_nationkey;
select count(*) as n from nation where nullif(n_regionkey, 1) is distinct from 2;
select count(*) as n from nation where nullif(n_regionkey, 1) is not distinct from null;
-- As a join condition: a hash key over columns without NULLs, a condition of the join over columns with them.
select count(*) as n from nation a join region r on a.n_regionkey is not distinct from r.r_regionkey;
select count(*) as n from nation a, nation b where nullif(a.n_regionkey, 1) is not distinct from nullif(b.n_regionkey, 1);
