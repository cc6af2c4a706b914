-- AlterEnum
ALTER TYPE "SuggestionStatus" ADD VALUE 'UNDONE';
