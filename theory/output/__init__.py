"""What a run writes: the staged output folder and ``NGC_REF_DATA`` (:mod:`.files`),
provenance (:mod:`.provenance`), figures (:mod:`.figures`), the report
(:mod:`.report`) and ``paper.md`` (:mod:`.paper_md`)."""
