-- CreateTable
CREATE TABLE "run_observations" (
    "run_id" TEXT NOT NULL,
    "matcher" TEXT NOT NULL,
    "cells" BYTEA NOT NULL,
    "mentions" INTEGER[],
    "entities" BIGINT NOT NULL,
    "counted" BIGINT NOT NULL,
    "not_counted" BIGINT NOT NULL,

    CONSTRAINT "run_observations_pkey" PRIMARY KEY ("run_id","matcher")
);
