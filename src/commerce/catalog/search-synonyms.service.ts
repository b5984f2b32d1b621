import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppError } from '../../common/errors/app-error';
import { TransactionRunner } from '../../database/transaction-runner';
import { AuditLog } from '../audit/audit-log.service';
import { SearchDictionary } from './search-dictionary.service';
import { SearchSynonym } from './search-synonym.entity';

const MIN_WORDS = 2;
const MAX_WORDS = 20;
const WORD = /^[\p{L}\p{N}]{1,50}$/u;

/**
 * A group's words as staff typed them ("sofa, couch, settee"; commas or new lines between them), lower-cased and
 * deduplicated, or the form error: 2–20 words, each 1–50 letters or digits (so none can reach the full-text syntax).
 */
export function synonymWords(text: string): string[] {
  const words = [
    ...new Set(
      text
        .normalize('NFC')
        .toLowerCase()
        .split(/[,\n]/)
        .map((word) => word.trim())
        .filter(Boolean),
    ),
  ];
  const problem = words.find((word) => !WORD.test(word))
    ? 'each word is 1 to 50 letters or digits, the words separated by commas'
    : words.length < MIN_WORDS || words.length > MAX_WORDS
      ? `give ${MIN_WORDS} to ${MAX_WORDS} different words, separated by commas`
      : null;
  if (problem) throw AppError.invalid({ words: [problem] }, `The synonyms were not saved: ${problem}.`);
  return words;
}

/** The CP's synonym groups (docs/control-panel.md, _Search_): each change audited, the search's copy refreshed. */
@Injectable()
export class SearchSynonyms {
  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: TransactionRunner,
    private readonly audit: AuditLog,
    private readonly dictionary: SearchDictionary,
  ) {}

  list(storeId: number): Promise<SearchSynonym[]> {
    return this.dataSource.getRepository(SearchSynonym).find({ where: { storeId }, order: { id: 'ASC' } });
  }

  async get(storeId: number, id: number): Promise<SearchSynonym> {
    const group = await this.dataSource.getRepository(SearchSynonym).findOneBy({ storeId, id });
    if (!group) throw AppError.notFound('There is no such synonym group.');
    return group;
  }

  async create(storeId: number, text: string, actor: string): Promise<SearchSynonym> {
    const words = synonymWords(text);
    return this.change(storeId, async (manager) => {
      const group = await manager.save(SearchSynonym, manager.create(SearchSynonym, { storeId, words }));
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'search-synonyms-created',
        subject: `synonyms:${group.id}`,
        subjectLabel: words.join(', '),
        changes: { words: { from: null, to: words } },
      });
      return group;
    });
  }

  async update(storeId: number, id: number, text: string, actor: string): Promise<SearchSynonym> {
    const words = synonymWords(text);
    return this.change(storeId, async (manager) => {
      const group = await manager.findOneBy(SearchSynonym, { storeId, id });
      if (!group) throw AppError.notFound('There is no such synonym group.');
      const before = group.words;
      group.words = words;
      await manager.save(group);
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'search-synonyms-updated',
        subject: `synonyms:${id}`,
        subjectLabel: words.join(', '),
        changes: { words: { from: before, to: words } },
      });
      return group;
    });
  }

  async delete(storeId: number, id: number, actor: string): Promise<SearchSynonym> {
    return this.change(storeId, async (manager) => {
      const group = await manager.findOneBy(SearchSynonym, { storeId, id });
      if (!group) throw AppError.notFound('There is no such synonym group.');
      await manager.delete(SearchSynonym, { id });
      await this.audit.record(manager, {
        actor,
        area: 'product',
        action: 'search-synonyms-deleted',
        subject: `synonyms:${id}`,
        subjectLabel: group.words.join(', '),
        changes: { words: { from: group.words, to: null } },
      });
      return group;
    });
  }

  private change<T>(storeId: number, work: (manager: DataSource['manager']) => Promise<T>): Promise<T> {
    return this.runner.run(async (tx) => {
      const result = await work(tx.manager);
      tx.afterCommit(() => this.dictionary.forgetSynonyms(storeId));
      return result;
    });
  }
}
