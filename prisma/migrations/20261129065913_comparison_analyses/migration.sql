-- AlterEnum
ALTER TYPE "AnalysisKind" ADD VALUE 'comparison';
