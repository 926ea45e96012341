"""The claim kit: claims, statements, results and scopes (:mod:`.claim`), how a check
judges and records its evidence (:mod:`.evidence`), the statistics (:mod:`.stats`),
how numbers are written (:mod:`.text`) and the checker's graphs (:mod:`.graphs`)."""
