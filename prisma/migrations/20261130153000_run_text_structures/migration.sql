-- CreateTable
CREATE TABLE "run_text_structures" (
    "run_id" TEXT NOT NULL,
    "rules" INTEGER NOT NULL,
    "structure" BYTEA NOT NULL,

    CONSTRAINT "run_text_structures_pkey" PRIMARY KEY ("run_id")
);
