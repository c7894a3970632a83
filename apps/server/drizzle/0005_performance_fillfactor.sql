-- A save of a past day rewrites the later rows of that month, and a company-wide save rewrites
-- most rows of each page it touches. At 80 % a page has room for a fifth of its rows' new
-- versions; the rest leave the page and add an entry to every index (a bulk back-dated save
-- spent three times as long on them). Half-empty pages keep those updates on their page. Rows
-- written from now on get the room; existing rows get it at the next rollup rebuild (CLUSTER).
ALTER TABLE "performances" SET (fillfactor = 50);
