import type { KnowledgeIndex } from './knowledge-index.ts';
import type { SearchHit } from './search-hit.ts';

/** A document that belongs to the asked domain, with its outline so an agent can ask for a topic next. */
export interface DomainDocument {
  path: string;
  title: string;
  domains: string[];
  /** The document's section headings with the line each starts on. */
  sections: { heading: string; startLine: number }[];
}

/** What `domain_knowledge` answers. */
export interface DomainKnowledge {
  domain: string;
  topic?: string;
  /** Documents of the domain, most relevant first; empty when the folder knows nothing about it. */
  documents: DomainDocument[];
  /** With a topic: the topic's passages within those documents; without: each document's opening passage. */
  passages: SearchHit[];
}

const normalize = (text: string) => text.normalize('NFKC').trim().toLowerCase();

async function documentsOf(index: KnowledgeIndex, domain: string): Promise<string[]> {
  const wanted = normalize(domain);
  const declared = index
    .documents()
    .filter((doc) => doc.domains.some((d) => normalize(d) === wanted) || normalize(doc.title).includes(wanted))
    .map((doc) => doc.path);
  if (declared.length > 0) return declared;
  const hits = await index.search(domain, { maxResults: 20 });
  return [...new Set(hits.filter((hit) => hit.score >= 0.5).map((hit) => hit.path))].slice(0, 3);
}

/**
 * Answers `domain_knowledge(domain, topic?)`: finds the documents of a domain (declared in their front
 * matter as `domains:`, else the title, else the best full-text matches of the domain's name) and returns
 * either the passages about `topic` inside them or, without a topic, an overview: each document's outline
 * and opening passage.
 */
export async function domainKnowledge(
  index: KnowledgeIndex,
  domain: string,
  topic?: string,
  maxResults = 5,
): Promise<DomainKnowledge> {
  await index.refresh();
  const paths = await documentsOf(index, domain);
  const byPath = new Map(index.documents().map((doc) => [doc.path, doc]));
  const documents: DomainDocument[] = paths.flatMap((path) => {
    const doc = byPath.get(path);
    if (!doc) return [];
    const sections = doc.passages
      .filter((passage, i, all) => passage.headings.at(-1) !== all[i - 1]?.headings.at(-1))
      .map((passage) => ({ heading: passage.headings.join(' › ') || doc.title, startLine: passage.startLine }));
    return [{ path, title: doc.title, domains: doc.domains, sections }];
  });
  let passages: SearchHit[];
  if (topic?.trim()) {
    passages = await index.search(topic, { paths: new Set(paths), maxResults, context: domain });
  } else {
    passages = documents.slice(0, maxResults).map((doc) => {
      const first = byPath.get(doc.path)!.passages[0]!;
      return {
        path: first.path,
        title: first.title,
        headings: first.headings,
        startLine: first.startLine,
        endLine: first.endLine,
        snippet: first.text,
        score: 1,
      };
    });
  }
  return { domain, ...(topic ? { topic } : {}), documents, passages };
}
