import { msg } from '@lingui/core/macro';

/** Route titles and the sidebar label of source-code projects, kept here so they land in the repos catalog. */
export const REPOS_LABELS = {
  sidebar: msg`Source code`,
  list: msg`Source-code projects`,
  intro: msg`What a commit proof proves`,
  global: msg`Code at a glance`,
  project: msg`Source-code project`,
  commit: msg`Commit`,
};

export const REPOS_PATH = '/dashboard/repos';
export const projectPath = (projectId: number | string) => `/dashboard/repos/detail/${projectId}`;
export const commitPath = (projectId: number | string, commitId: string) => `/dashboard/repos/detail/${projectId}/${commitId}`;
