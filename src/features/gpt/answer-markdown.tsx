import { memo } from 'react';
import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';
import { Anchor, Code, Table } from '@mantine/core';
import { Link } from 'wouter';
import classes from './chat-page.module.css';

/**
 * An answer as markdown with GFM tables, lists and code. Raw HTML in it is dropped
 * (skipHtml; no rehype-raw), and react-markdown's URL filter leaves only safe link
 * schemes. In-app links (/dashboard/…) navigate inside the app; others open a new tab.
 */
const components: Components = {
  a: ({ href, children }) =>
    href?.startsWith('/') ? (
      <Anchor component={Link} href={href} size="sm">
        {children}
      </Anchor>
    ) : (
      <Anchor href={href} target="_blank" rel="noopener noreferrer" size="sm">
        {children}
      </Anchor>
    ),
  table: ({ children }) => (
    <Table.ScrollContainer minWidth={360} className={classes.table}>
      <Table withTableBorder withColumnBorders striped fz="sm">
        {children}
      </Table>
    </Table.ScrollContainer>
  ),
  thead: ({ children }) => <Table.Thead>{children}</Table.Thead>,
  tbody: ({ children }) => <Table.Tbody>{children}</Table.Tbody>,
  tr: ({ children }) => <Table.Tr>{children}</Table.Tr>,
  th: ({ children }) => <Table.Th>{children}</Table.Th>,
  td: ({ children }) => <Table.Td>{children}</Table.Td>,
  pre: ({ children }) => <pre className={classes.pre}>{children}</pre>,
  code: ({ className, children }) => (className ? <code className={className}>{children}</code> : <Code>{children}</Code>),
};

export const AnswerMarkdown = memo(function AnswerMarkdown({ text }: { text: string }) {
  return (
    <div className={classes.markdown} data-testid="gpt-markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} skipHtml components={components}>
        {text}
      </ReactMarkdown>
    </div>
  );
});
