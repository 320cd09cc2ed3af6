-- AlterEnum
ALTER TYPE "AnalysisKind" ADD VALUE 'opportunities';
